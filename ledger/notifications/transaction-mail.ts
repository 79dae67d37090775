import { formatFullDateTime, formatTransactionAmount } from '../display-amount.js';
import { money } from '../money.js';

/**
 * What a transaction e-mail tells (Settings > Notifications, "Transaction updates" by e-mail).
 * Only a customer's deposits, withdrawals and sends are told of, as the bell does; a swap, a
 * stake, its payout and a balance adjustment are not. One outcome per event:
 * - `received`: money came in, a credit (amount above zero) of a deposit or an incoming send
 *   became Complete: recorded Complete by staff, or settled from Pending.
 * - `settled`: money went out, a debit of a withdrawal or a send (to an address) became
 *   Complete, recorded so by staff or settled from Pending.
 * - `failed`: a Pending deposit, withdrawal or send failed (a transaction recorded as Failed from
 *   the start moved no money and is not told of).
 * A transaction reaches Complete or Failed once, so its outcome is told once.
 */
export type TransactionOutcome = 'received' | 'settled' | 'failed';
export type TransactionMailKind = 'deposit' | 'withdrawal' | 'send';

export interface TransactionOutcomeNotice {
  transactionId: string;
  outcome: TransactionOutcome;
  kind: TransactionMailKind;
  assetId: string;
  /** Signed decimal string, as the event holds it. */
  amount: string;
  /** Hidden from the customer's view (recorded so by staff): never told of. */
  hidden: boolean;
}

const KINDS = new Set<string>(['deposit', 'withdrawal', 'send']);
const isKind = (v: unknown): v is TransactionMailKind => typeof v === 'string' && KINDS.has(v);

/** The outcome a wallet event tells the customer of by e-mail, or null. Pure. */
export function transactionOutcomeOf(event: { type: string; data: unknown }): TransactionOutcomeNotice | null {
  const d = event.data as {
    transactionId?: string;
    assetId?: string;
    amount?: string;
    kind?: string;
    type?: string;
    status?: string;
    isHidden?: boolean;
  };
  if (typeof d?.transactionId !== 'string' || typeof d.assetId !== 'string' || typeof d.amount !== 'string') return null;
  const base = { transactionId: d.transactionId, assetId: d.assetId, amount: d.amount };
  const credit = money(d.amount).gt(0);
  switch (event.type) {
    case 'wallet.transaction-failed':
      return isKind(d.kind) ? { ...base, kind: d.kind, outcome: 'failed', hidden: false } : null;
    case 'wallet.transaction-settled':
      return isKind(d.kind) ? { ...base, kind: d.kind, outcome: credit ? 'received' : 'settled', hidden: false } : null;
    case 'wallet.transaction-recorded':
      if (d.status !== 'Complete' || !isKind(d.type)) return null;
      return { ...base, kind: d.type, outcome: credit ? 'received' : 'settled', hidden: d.isHidden === true };
    default:
      return null;
  }
}

/** The key under which the mail of one transaction's outcome is taken in `mail_sent` (sent once). */
export const transactionMailKey = (n: Pick<TransactionOutcomeNotice, 'transactionId' | 'outcome'>) =>
  `transaction:${n.transactionId}:${n.outcome}`;

/** An amount as the mail shows it, as the bell and the screens do: 2 to 8 decimals, thousands separated, no sign. */
export function mailAmount(amount: string): string {
  return formatTransactionAmount(amount, { signed: false });
}

/**
 * A moment as the mails show it: the screens' long form in UTC, named (`01 Mar 2025, 14:05:09 UTC`);
 * the server does not know the reader's time zone (docs/decisions.md, "One format module").
 */
export function mailTime(at: Date): string {
  return formatFullDateTime(at, { zone: 'UTC' });
}

/** The subject and first line of the mail of an outcome. */
export function transactionMailText(n: TransactionOutcomeNotice): { subject: string; message: string } {
  const what = `${mailAmount(n.amount)} ${n.assetId}`;
  const incoming = money(n.amount).gt(0);
  const noun = n.kind === 'deposit' ? 'deposit' : n.kind === 'withdrawal' ? 'withdrawal' : 'transfer';
  switch (n.outcome) {
    case 'received':
      return {
        subject: `You received ${what}`,
        message:
          n.kind === 'deposit'
            ? `Your deposit of ${what} has been completed and credited to your wallet.`
            : `An incoming transfer of ${what} has been credited to your wallet.`,
      };
    case 'settled':
      return n.kind === 'send'
        ? { subject: `Your transfer of ${what} has been sent`, message: `Your transfer of ${what} has been sent.` }
        : { subject: `Your ${noun} of ${what} has been completed`, message: `Your ${noun} of ${what} has been completed.` };
    case 'failed':
      if (n.kind === 'send' && !incoming)
        return { subject: `Your transfer of ${what} was not approved`, message: `Your transfer of ${what} was not approved.` };
      if (n.kind === 'send')
        return { subject: `An incoming transfer of ${what} has failed`, message: `An incoming transfer of ${what} has failed.` };
      return { subject: `Your ${noun} of ${what} has failed`, message: `Your ${noun} of ${what} has failed.` };
  }
}
