import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { comparePositions, type EventStore, type RecordedEvent } from '../../ledger/event-store/port.js';
import { holdsCardLikeNumber } from '../../ledger/payment-methods/card.js';
import type { TrailKind } from '../../ledger/contract/staff-users.js';
import { staffActionLabel } from '../../ledger/contract/staff-activity.js';
import { formatFullDateTime, formatTransactionAmount, formatUsd } from '../../ledger/display-amount.js';
import { attribute, requestIdOf, staffActionOf, type Party, type RequestParties } from '../../ledger/audit/staff-actions.js';

/**
 * Field names that never leave the server in the trail, whatever a future event carries:
 * passwords, secrets, codes, tokens, hashes, card numbers, CVVs, session ids and retry keys.
 * The log should hold none of them; this is the second lock on the door.
 */
const SECRET_FIELD = /pass(word)?|secret|code|token|hash|cvv|cvc|otp|pin$|session|card_?number|account_?number|idempotency/i;

/**
 * A payment method's free text (notes, names) shown with any card-number-like run hidden:
 * such text is refused now, but events recorded before that check may still hold one.
 */
export const CARD_LIKE_HIDDEN = '[hidden: looks like a card number]';
export function withoutCardNumbers(value: unknown): unknown {
  if (typeof value === 'string') return holdsCardLikeNumber(value) ? CARD_LIKE_HIDDEN : value;
  if (Array.isArray(value)) return value.map(withoutCardNumbers);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutCardNumbers(v)]));
  return value;
}

/** A copy of `value` without any field whose name looks secret, at any depth. */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (!SECRET_FIELD.test(k)) out[k] = withoutSecrets(v);
    }
    return out;
  }
  return value;
}

export function kindOf(type: string): TrailKind {
  if (
    type.startsWith('wallet.') ||
    type.startsWith('payment-method.') ||
    type.startsWith('buying-link.') ||
    type === 'user.wallet-address-set'
  )
    return 'money';
  if (type.startsWith('user.kyc-')) return 'kyc';
  if (type === 'user.permissions-updated') return 'permissions';
  if (
    type.startsWith('ticket.') ||
    type.startsWith('notification.') ||
    type === 'user.dashboard-note-set' ||
    type === 'user.notification-preferences-set'
  )
    return 'support';
  return 'access';
}

export type Data = Record<string, unknown>;
const s = (v: unknown) => (v === null || v === undefined || v === '' ? '-' : String(v));
/*
 * Amounts, USD values and dates in the format module's forms (ledger/display-amount.ts), as the
 * staff screens show them: a transaction's amount with 2 to 8 decimals and its sign, a USD value
 * with 2, and a moment in the long form in UTC, named (the server writes the line, not the viewer).
 */
const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const signed = (v: unknown) => (isText(v) ? formatTransactionAmount(v) : s(v));
const amount = (v: unknown) => (isText(v) ? formatTransactionAmount(v, { signed: false }) : s(v));
const usd = (v: unknown) => (isText(v) ? formatUsd(v) : s(v));
const moment = (v: unknown) => (isText(v) ? formatFullDateTime(v, { zone: 'UTC' }) || s(v) : s(v));

/** One readable line for an event; the data itself is shown beside it. */
export function summaryOf(type: string, d: Data): string {
  switch (type) {
    case 'wallet.deposit-requested':
      return `Deposit requested: ${signed(d.amount)} ${s(d.assetId)} (fee ${amount(d.fee)})`;
    case 'wallet.withdrawal-requested':
      return `Withdrawal requested: ${signed(d.amount)} ${s(d.assetId)} (fee ${amount(d.fee)})`;
    case 'wallet.send-requested':
      return `Send requested: ${signed(d.amount)} ${s(d.assetId)} to ${s(d.recipientAddress)}`;
    case 'wallet.transaction-recorded':
      return `Transaction added by staff: ${signed(d.amount)} ${s(d.assetId)}, ${s(d.type)}, ${s(d.status)}${d.note ? ` — ${s(d.note)}` : ''}`;
    case 'wallet.transaction-settled':
      return `Transaction marked Complete: ${signed(d.amount)} ${s(d.assetId)}`;
    case 'wallet.transaction-failed':
      return `Transaction marked Failed: ${signed(d.amount)} ${s(d.assetId)}${d.reason ? ` (${s(d.reason)})` : ''}`;
    case 'wallet.transaction-edited':
      return `Transaction edited:${d.type !== undefined ? ` type ${s(d.type)}` : ''}${d.note !== undefined ? ` note "${s(d.note)}"` : ''}`;
    case 'wallet.swap-requested':
      return `Swap ${s(d.fromAssetId)} → ${s(d.toAssetId)} (${s(d.leg)} leg): ${signed(d.amount)} ${s(d.assetId)}`;
    case 'wallet.stake-opened':
      return `Stake opened: ${amount(d.principal)} ${s(d.assetId)} for ${s(d.durationDays)} days`;
    case 'wallet.stake-paid-out':
      return `Stake paid out: ${amount(d.amount)} ${s(d.assetId)}`;
    case 'wallet.approval-requested':
      return `Awaiting second approval: ${d.action === 'settle-transaction' ? 'Complete of' : 'manual transaction'} ${signed(d.amount)} ${s(d.assetId)} (${usd(d.valueUsd)} at ${usd(d.priceUsd)})`;
    case 'wallet.approval-approved':
      return `Second approval given: ${s(d.reason)}`;
    case 'wallet.approval-rejected':
      return `Second approval refused: ${s(d.reason)}`;
    case 'wallet.approval-expired':
      return 'Approval request expired without a decision';
    case 'payment-method.card-added':
      return `Card added: ${s(d.cardBrand)} •••• ${s(d.last4)}, expires ${s(d.expiryDate)}`;
    case 'payment-method.bank-account-added':
      return `Bank account added: ${s(d.bankName)} •••• ${s(d.bankLast4)}`;
    case 'payment-method.removed':
      return 'Payment method removed';
    case 'buying-link.added':
      return `Buying link added: ${s(d.name)} (${s(d.url)})`;
    case 'buying-link.removed':
      return 'Buying link removed';
    case 'user.registered':
      return `Account registered (${s(d.role)}, ${s(d.source)})`;
    case 'user.profile-created':
      return 'Customer profile created';
    case 'user.email-confirmed':
      return 'E-mail address confirmed';
    case 'user.signed-in':
      return `Signed in from ${s(d.ipAddress)}`;
    case 'user.password-changed':
      return d.method === 'staff-reset' ? 'Password reset by staff' : `Password changed (${s(d.method)})`;
    case 'user.password-change-required':
      return d.required ? 'New password required at next sign-in' : 'Password change requirement cleared';
    case 'user.mfa-removed-by-staff':
      return `Two-factor authentication removed by staff: "${s(d.reason)}"`;
    case 'user.banned':
      return `Banned until ${moment(d.until)}`;
    case 'user.unbanned':
      return 'Unbanned';
    case 'user.claimed':
      return 'Claimed by a worker';
    case 'user.permissions-updated': {
      const names = [
        ['canSend', 'send'],
        ['canSwap', 'swap'],
        ['canBuy', 'buy'],
        ['canSell', 'sell'],
        ['canStake', 'stake'],
      ] as const;
      return `Permissions: ${names.map(([k, n]) => `${n} ${d[k] ? 'on' : 'off'}`).join(', ')}`;
    }
    case 'user.wallet-address-set':
      return `${s(d.assetId)} address set to ${s(d.address)}`;
    case 'user.dashboard-note-set':
      return d.note ? `Dashboard note set: "${s(d.note)}"` : 'Dashboard note cleared';
    case 'user.kyc-submitted':
      return 'KYC submitted';
    case 'user.kyc-approved':
      return 'KYC approved';
    case 'user.kyc-rejected':
      return `KYC rejected${d.reason ? `: ${s(d.reason)}` : ''}`;
    case 'user.kyc-document-viewed':
      return `KYC ${s(d.document)} document opened`;
    case 'user.notification-preferences-set': {
      const on = (v: unknown) => (v ? 'on' : 'off');
      return `Notification choices: transaction updates in app ${on(d.transactionsInApp)}, by e-mail ${on(d.transactionsEmail)}, account changes by e-mail ${on(d.accountChangesEmail)}, in app ${on(d.accountChangesInApp)}`;
    }
    case 'notification.marked-read':
      return 'Notifications marked read';
    case 'notification.all-marked-read':
      return 'All notifications marked read';
    case 'ticket.opened':
      return `Ticket opened: ${s(d.subject)}`;
    case 'ticket.response-posted':
      return d.fromWorker ? 'Support replied' : 'Customer replied';
    case 'ticket.status-changed':
      return `Ticket status ${s(d.from)} → ${s(d.to)}`;
    default:
      return type;
  }
}

/** The streams that hold facts about this user: their own, and their tickets'. */
async function streamsOf(db: Kysely<DB>, userId: string): Promise<string[]> {
  const own = ['user', 'wallet', 'payment-methods', 'notifications', 'buying-links'].map((c) => `${c}-${userId}`);
  let tickets: string[];
  try {
    const { rows } = await sql<{ id: string }>`select id from support_tickets where user_id = ${userId}`.execute(db);
    tickets = rows.map((r) => `ticket-${r.id}`);
  } catch {
    tickets = []; // no tickets table on this database yet
  }
  return [...own, ...tickets];
}

/** Every event behind the user, newest first (by position in the global log). */
export async function userTrail(store: EventStore, db: Kysely<DB>, userId: string): Promise<RecordedEvent[]> {
  const streams = await streamsOf(db, userId);
  const all: RecordedEvent[] = [];
  for (const stream of streams) all.push(...(await store.readStream(stream)));
  return all.sort((a, b) => comparePositions(b.position, a.position));
}

/** A staff action of the trail: its action (code and readable name), maker and checker (ids and roles). */
export interface TrailStaffAction {
  action: string;
  name: string;
  maker: Party;
  checker: Party | null;
}

/**
 * The staff actions among a trail's events (newest first, as userTrail gives them), by event
 * id: read oldest first, so that a credit or a settlement an approval created names the
 * approval's maker and checker.
 */
export function staffActionsOfTrail(trail: RecordedEvent[]): Map<string, TrailStaffAction> {
  const requests = new Map<string, RequestParties>();
  const out = new Map<string, TrailStaffAction>();
  for (let i = trail.length - 1; i >= 0; i--) {
    const e = trail[i]!;
    const found = staffActionOf(e.type, e.data, e.metadata);
    if (found) {
      const who = attribute(e.type, e.data, found.actor, requests);
      out.set(e.eventId, { action: found.action, name: staffActionLabel(found.action), maker: who.maker, checker: who.checker });
    } else if (requestIdOf(e.type, e.data)) attribute(e.type, e.data, { id: null, role: null }, requests);
  }
  return out;
}
