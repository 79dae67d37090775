import { Decimal } from 'decimal.js';
import type { AssetId } from '../assets.js';
import { formatAmount, ZERO } from '../money.js';
import { WALLET_STREAM_PREFIX, type WalletEventData } from '../wallet/events.js';
import type { Valuation } from '../wallet/approvals.js';
import { parseAccount } from './accounts.js';
import type { Posting } from './postings.js';
import type { BookEvent } from './book.js';
import { attribute, requestIdOf, type ActorMetadata, type RequestParties } from '../audit/staff-actions.js';

const STAFF_ROLES = new Set(['WORKER', 'MANAGER', 'ADMIN']);
const CHECKER_ROLES = new Set(['MANAGER', 'ADMIN']);
const DAY_MS = 86_400_000;

export interface FourEyesProblem {
  eventId: string;
  type: string;
  transactionId: string;
  problem: string;
}

export interface FourEyesAuditResult {
  /** Manual transactions and staff settlements checked against the rule. */
  checked: number;
  /** Of those, the ones a second person approved. */
  approved: number;
  /** Written before the rule (no valuation, no request): counted, not judged. */
  unvalued: number;
  /** Every event that breaks a rule, in log order: the first is the first break (at most 20 kept). */
  problems: FourEyesProblem[];
}

/** What the audit reads of an event: the book's fields and, when the log gives them, who wrote it and when. */
export interface AuditedEvent extends BookEvent {
  metadata?: { actorId: string; actorRole: string; occurredAt: string };
}

interface RequestSeen {
  transactionId: string;
  amount: string;
  assetId: string;
  makerId: string;
  status: 'pending' | 'approved' | 'closed';
}

/**
 * `ledger verify`'s check of the two-person rule over the log, recomputed from the events alone
 * (the rule itself: ledger/wallet/staff-rule.ts):
 * - every manual transaction recorded Complete and every staff settlement of anything but a
 *   customer's swap (known by the event that opened it, not by its editable type) either names
 *   an approved request of the same wallet for that very transaction, amount and asset, or
 *   carries the valuation it ran with, whose value, recomputed as |amount| x price, is within
 *   the limit and, with the maker's and the customer's other solo actions of the 24 hours
 *   before it, within the daily limit;
 * - each approval was given by a manager or an admin who is neither the maker nor someone who
 *   created the maker's account or set its password in the `separationDays` before;
 * - each request's value is |amount| x its price;
 * - no staff edit set or removed the type swap, or changed a type while a request held it.
 */
export class FourEyesAudit {
  readonly result: FourEyesAuditResult = { checked: 0, approved: 0, unvalued: 0, problems: [] };
  private readonly requests = new Map<string, RequestSeen>(); // stream|requestId
  private readonly swapLegs = new Set<string>(); // stream|transactionId
  private readonly held = new Map<string, string>(); // stream|transactionId -> requestId holding it
  private readonly controllers = new Map<string, { id: string; at: number }[]>(); // maker id -> who could act as them
  private readonly soloByMaker = new Map<string, { at: number; value: Decimal }[]>();
  private readonly soloByCustomer = new Map<string, { at: number; value: Decimal }[]>();

  constructor(private readonly options: { separationDays?: number } = {}) {}

  apply(e: AuditedEvent): void {
    if (e.streamId.startsWith('user-')) return this.applyUser(e);
    if (!e.streamId.startsWith(WALLET_STREAM_PREFIX)) return;
    const key = (id: string) => `${e.streamId}|${id}`;
    const refuse = (transactionId: string, problem: string) => {
      if (this.result.problems.length < 20) this.result.problems.push({ eventId: e.eventId, type: e.type, transactionId, problem });
    };
    switch (e.type) {
      case 'wallet.swap-requested':
        this.swapLegs.add(key((e.data as { transactionId: string }).transactionId));
        return;
      case 'wallet.approval-requested': {
        const d = e.data as WalletEventData<'wallet.approval-requested'>;
        this.requests.set(key(d.requestId), {
          transactionId: d.transactionId,
          amount: d.amount,
          assetId: d.assetId,
          makerId: d.makerId,
          status: 'pending',
        });
        this.held.set(key(d.transactionId), d.requestId);
        const value = new Decimal(d.amount).abs().times(d.priceUsd);
        if (!value.toDecimalPlaces(18).eq(d.valueUsd))
          refuse(
            d.transactionId,
            `request ${d.requestId} says ${d.valueUsd} USD, but ${d.amount} at ${d.priceUsd} USD is ${formatAmount(value)}`,
          );
        return;
      }
      case 'wallet.approval-approved':
      case 'wallet.approval-rejected':
      case 'wallet.approval-expired': {
        const d = e.data as { requestId: string; checkerId?: string; checkerRole?: string };
        const r = this.requests.get(key(d.requestId));
        if (!r) return;
        if (e.type !== 'wallet.approval-approved') {
          r.status = 'closed';
          if (this.held.get(key(r.transactionId)) === d.requestId) this.held.delete(key(r.transactionId));
          return;
        }
        r.status = 'approved';
        const checker = d.checkerId ?? '';
        if (checker === r.makerId) refuse(r.transactionId, `request ${d.requestId} was approved by its own maker`);
        else if (!CHECKER_ROLES.has(d.checkerRole ?? ''))
          refuse(r.transactionId, `request ${d.requestId} was approved by a ${d.checkerRole}`);
        else if (this.controls(checker, r.makerId, e.metadata?.occurredAt))
          refuse(r.transactionId, `request ${d.requestId} was approved by ${checker}, who created the maker's account or set its password`);
        return;
      }
      case 'wallet.transaction-edited': {
        const d = e.data as WalletEventData<'wallet.transaction-edited'>;
        if (d.type === undefined) return;
        if ((d.type === 'swap') !== this.swapLegs.has(key(d.transactionId)))
          refuse(d.transactionId, `staff ${d.type === 'swap' ? 'set' : 'removed'} the type swap, which only a customer's swap makes`);
        else if (this.held.has(key(d.transactionId)))
          refuse(d.transactionId, `its type changed to ${d.type} while request ${this.held.get(key(d.transactionId))} held it`);
        return;
      }
    }
    let judged: { transactionId: string; assetId: string; amount: string; approvalRequestId?: string; valuation?: Valuation } | null = null;
    if (e.type === 'wallet.transaction-recorded') {
      const d = e.data as WalletEventData<'wallet.transaction-recorded'>;
      if (d.status === 'Complete') judged = d;
    } else if (e.type === 'wallet.transaction-settled') {
      const d = e.data as WalletEventData<'wallet.transaction-settled'>;
      // A customer's swap converts; a settlement by the system (seeding) is no staff action.
      const byStaff = !e.metadata || STAFF_ROLES.has(e.metadata.actorRole);
      if (!this.swapLegs.has(key(d.transactionId)) && byStaff) judged = d;
    }
    if (!judged) return;
    const r = this.result;
    r.checked++;
    if (judged.approvalRequestId) {
      const request = this.requests.get(key(judged.approvalRequestId));
      if (!request || request.status !== 'approved' || request.transactionId !== judged.transactionId)
        refuse(judged.transactionId, `names request ${judged.approvalRequestId}, which no second person approved for this transaction`);
      else if (!new Decimal(request.amount).eq(judged.amount) || request.assetId !== judged.assetId)
        refuse(
          judged.transactionId,
          `moves ${judged.amount} ${judged.assetId}, but request ${judged.approvalRequestId} approved ${request.amount} ${request.assetId}`,
        );
      else r.approved++;
      return;
    }
    const v = judged.valuation;
    if (!v) {
      r.unvalued++;
      return;
    }
    const value = new Decimal(judged.amount).abs().times(v.priceUsd);
    const limit = new Decimal(v.limitUsd);
    if (limit.isZero() || value.gt(limit)) {
      refuse(
        judged.transactionId,
        `worth ${formatAmount(value.toDecimalPlaces(2))} USD, above the limit of ${v.limitUsd} USD, without a second approval`,
      );
      return;
    }
    if (!v.valuedAt || !v.makerId || !v.dailyLimitUsd) return;
    const at = Date.parse(v.valuedAt);
    const customer = e.streamId.slice(WALLET_STREAM_PREFIX.length);
    const makerSum = rollingSum(this.soloByMaker, v.makerId, at, value);
    const customerSum = rollingSum(this.soloByCustomer, customer, at, value);
    const daily = new Decimal(v.dailyLimitUsd);
    const [who, sum] = makerSum.gt(daily) ? [`maker ${v.makerId}`, makerSum] : [`customer ${customer}`, customerSum];
    if (sum.gt(daily))
      refuse(
        judged.transactionId,
        `takes what staff moved alone for ${who} within 24 hours to ${formatAmount(sum.toDecimalPlaces(2))} USD, above the daily limit of ${v.dailyLimitUsd} USD`,
      );
  }

  private applyUser(e: AuditedEvent): void {
    const actor = e.metadata?.actorId;
    const userId = e.streamId.slice('user-'.length);
    if (!actor || actor === userId || !e.metadata) return;
    const sets =
      e.type === 'user.registered' || (e.type === 'user.password-changed' && (e.data as { method?: string }).method === 'staff-reset');
    if (!sets) return;
    const list = this.controllers.get(userId) ?? [];
    list.push({ id: actor, at: Date.parse(e.metadata.occurredAt) });
    this.controllers.set(userId, list);
  }

  private controls(checkerId: string, makerId: string, when: string | undefined): boolean {
    const days = this.options.separationDays ?? 30;
    const at = when ? Date.parse(when) : Number.POSITIVE_INFINITY;
    return (this.controllers.get(makerId) ?? []).some((c) => c.id === checkerId && c.at > at - days * DAY_MS);
  }
}

/** Adds a solo action to `who`'s list and answers the sum of the 24 hours up to it. */
function rollingSum(lists: Map<string, { at: number; value: Decimal }[]>, who: string, at: number, value: Decimal): Decimal {
  const list = (lists.get(who) ?? []).filter((x) => x.at > at - DAY_MS);
  list.push({ at, value });
  lists.set(who, list);
  return list.reduce((sum, x) => sum.plus(x.value), ZERO);
}

export interface StaffAdjustmentLine {
  /** The staff member who entered the manual transactions (the maker); null: the log does not name them. */
  staffId: string | null;
  /** The second person who approved them (the checker); null: none was needed. */
  checkerId: string | null;
  assetId: AssetId;
  /** Net value those transactions put into customers' wallets (negative: taken out). */
  credited: string;
  postings: number;
}

/** An event as the staff adjustments read it: its postings' cause, with who wrote it. */
export interface AttributedEvent {
  type: string;
  data: unknown;
  metadata?: ActorMetadata;
}

/**
 * Sums the staff adjustments accounts' postings per maker, checker and asset (`ledger
 * trial-balance --from --to`). Fed every event of the log in order (with its postings, none
 * for most), so that it knows which approval each settlement or credit came with.
 */
export class StaffAdjustments {
  private readonly sums = new Map<
    string,
    { staffId: string | null; checkerId: string | null; assetId: AssetId; sum: Decimal; postings: number }
  >();
  private readonly requests = new Map<string, RequestParties>();

  add(postings: Posting[], event?: AttributedEvent): void {
    let checkerId: string | null = null;
    if (event && requestIdOf(event.type, event.data)) {
      const actorId = typeof event.metadata?.actorId === 'string' ? event.metadata.actorId : null;
      const actorRole = typeof event.metadata?.actorRole === 'string' ? event.metadata.actorRole : null;
      checkerId = attribute(event.type, event.data, { id: actorId, role: actorRole }, this.requests).checker?.id ?? null;
    }
    for (const p of postings) {
      const account = parseAccount(p.account);
      if (account.kind !== 'staff-adjustments') continue;
      const key = `${account.userId ?? ''}|${checkerId ?? ''}|${p.assetId}`;
      const line = this.sums.get(key) ?? { staffId: account.userId, checkerId, assetId: p.assetId, sum: ZERO, postings: 0 };
      // The account gives what the customers receive: its postings are the negation.
      this.sums.set(key, { ...line, sum: line.sum.minus(new Decimal(p.amount)), postings: line.postings + 1 });
    }
  }

  lines(): StaffAdjustmentLine[] {
    return [...this.sums.values()]
      .sort(
        (a, b) =>
          (a.staffId ?? '').localeCompare(b.staffId ?? '') ||
          (a.checkerId ?? '').localeCompare(b.checkerId ?? '') ||
          a.assetId.localeCompare(b.assetId),
      )
      .map((l) => ({
        staffId: l.staffId,
        checkerId: l.checkerId,
        assetId: l.assetId,
        credited: formatAmount(l.sum),
        postings: l.postings,
      }));
  }
}
