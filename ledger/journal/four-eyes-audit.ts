import { Decimal } from 'decimal.js';
import type { AssetId } from '../assets.js';
import { formatAmount, ZERO } from '../money.js';
import { WALLET_STREAM_PREFIX, type WalletEventData } from '../wallet/events.js';
import { needsSecondApproval, type Valuation } from '../wallet/approvals.js';
import { parseAccount } from './accounts.js';
import type { Posting } from './postings.js';
import type { BookEvent } from './book.js';
import { attribute, requestIdOf, type ActorMetadata, type RequestParties } from '../audit/staff-actions.js';

/** Kinds whose settlement by staff falls under the two-person rule (a swap's is a conversion). */
const SETTLED_UNDER_RULE = new Set(['deposit', 'withdrawal', 'send', 'adjustment']);

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
  /** Every one that moved value above the limit without an approval (at most 20 kept). */
  problems: FourEyesProblem[];
}

/**
 * `ledger verify`'s check of the two-person rule over the log: every manual transaction
 * recorded Complete and every staff settlement of a deposit, withdrawal or send either names
 * an approved request of the same stream for that very transaction, or carries the valuation
 * it ran with and that valuation was within the limit.
 */
export class FourEyesAudit {
  private readonly approvedRequests = new Map<string, string>(); // requestId -> transactionId
  readonly result: FourEyesAuditResult = { checked: 0, approved: 0, unvalued: 0, problems: [] };

  apply(e: BookEvent): void {
    if (!e.streamId.startsWith(WALLET_STREAM_PREFIX)) return;
    if (e.type === 'wallet.approval-requested') {
      const d = e.data as WalletEventData<'wallet.approval-requested'>;
      this.pending.set(`${e.streamId}|${d.requestId}`, d.transactionId);
      return;
    }
    if (e.type === 'wallet.approval-approved') {
      const d = e.data as WalletEventData<'wallet.approval-approved'>;
      const key = `${e.streamId}|${d.requestId}`;
      const tx = this.pending.get(key);
      if (tx) this.approvedRequests.set(key, tx);
      return;
    }
    let judged: { transactionId: string; approvalRequestId?: string; valuation?: Valuation } | null = null;
    if (e.type === 'wallet.transaction-recorded') {
      const d = e.data as WalletEventData<'wallet.transaction-recorded'>;
      if (d.status === 'Complete') judged = d;
    } else if (e.type === 'wallet.transaction-settled') {
      const d = e.data as WalletEventData<'wallet.transaction-settled'>;
      if (d.kind && SETTLED_UNDER_RULE.has(d.kind)) judged = d;
    }
    if (!judged) return;
    const r = this.result;
    r.checked++;
    const refuse = (problem: string) => {
      if (r.problems.length < 20) r.problems.push({ eventId: e.eventId, type: e.type, transactionId: judged.transactionId, problem });
    };
    if (judged.approvalRequestId) {
      const approvedFor = this.approvedRequests.get(`${e.streamId}|${judged.approvalRequestId}`);
      if (approvedFor === judged.transactionId) r.approved++;
      else refuse(`names request ${judged.approvalRequestId}, which no second person approved for this transaction`);
    } else if (judged.valuation) {
      if (needsSecondApproval(judged.valuation.valueUsd, judged.valuation.limitUsd)) {
        refuse(`worth ${judged.valuation.valueUsd} USD, above the limit of ${judged.valuation.limitUsd} USD, without a second approval`);
      }
    } else r.unvalued++;
  }

  private readonly pending = new Map<string, string>();
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
