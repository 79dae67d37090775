import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Decimal } from 'decimal.js';
import type { AuthInfo } from '../auth/guard.js';
import type { LedgerContext } from '../context.js';
import type { PriceCache } from '../prices/price-cache.js';
import { usdPrice } from '../prices/usd-price.js';
import { walletDecider } from '../../ledger/wallet/decider.js';
import {
  isApprovalEventType,
  needsSecondApproval,
  type ApprovalAction,
  type ProposedTransaction,
  type Valuation,
} from '../../ledger/wallet/approvals.js';
import type { AssetId } from '../../ledger/assets.js';
import { formatAmount, money } from '../../ledger/money.js';
import type { StaffRole } from '../shared/access.js';
import type { RealtimeHub } from '../realtime/hub.js';
import type { FeedHandler } from '../realtime/live-feed.js';
import type { Approval, ApprovalStatus } from '../../ledger/contract/approvals.js';

const HOUR_MS = 3_600_000;

/** What the screens show of a request under the two-person rule (ledger/contract/approvals.ts). */
export type ApprovalView = Approval;

/** The answer of a staff call whose action now waits for a second person. */
export const AWAITING_SECOND_APPROVAL = 'Awaiting second approval';

export interface MakerAction {
  customerId: string;
  action: ApprovalAction;
  transactionId: string;
  assetId: AssetId;
  /** Signed, its effect on the wallet; for a settlement the decider reads the transaction's own. */
  amount: Decimal;
  transaction: ProposedTransaction | null;
}

/**
 * The two-person rule on the server's side: values an action at the price of the moment,
 * records a request when it needs a second person, lets a checker decide, lapses requests
 * past their expiry (lazily: the first reader after the time writes the expiry event; the
 * wallet stream's expected revision makes it one event however many instances read), and
 * reads requests for the screens.
 */
export class FourEyes {
  readonly limitUsd: Decimal;
  private readonly expiryMs: number;

  constructor(
    private readonly ledger: LedgerContext,
    private readonly prices: PriceCache,
  ) {
    this.limitUsd = money(ledger.config.FOUR_EYES_LIMIT_USD);
    this.expiryMs = ledger.config.FOUR_EYES_EXPIRY_HOURS * HOUR_MS;
  }

  /** The USD price of the moment, |amount| x price, and the limit it is held against. */
  valuation(assetId: AssetId, amount: Decimal): Valuation {
    const price = usdPrice(this.prices, assetId);
    return {
      priceUsd: formatAmount(price),
      valueUsd: formatAmount(amount.abs().times(price).toDecimalPlaces(18)),
      limitUsd: formatAmount(this.limitUsd),
    };
  }

  /**
   * Records the action as waiting for a second person when its value needs one (`waiting`);
   * otherwise answers the valuation the action runs with at once (kept on its event).
   */
  async requestIfNeeded(
    staff: AuthInfo,
    a: MakerAction,
    ctx: { ip: string | null },
  ): Promise<{ waiting: ApprovalView | null; valuation: Valuation }> {
    const valuation = this.valuation(a.assetId, a.amount);
    if (!needsSecondApproval(valuation.valueUsd, valuation.limitUsd)) return { waiting: null, valuation };
    const valued = { price: money(valuation.priceUsd) };
    const requestId = randomUUID();
    const now = new Date();
    await this.ledger.execute(
      walletDecider,
      a.customerId,
      {
        type: 'RequestApproval',
        requestId,
        action: a.action,
        transactionId: a.transactionId,
        assetId: a.assetId,
        amount: a.amount,
        priceUsd: valued.price,
        limitUsd: this.limitUsd,
        maker: { id: staff.userId, role: staff.role as StaffRole },
        now: now.toISOString(),
        expiresAt: new Date(now.getTime() + this.expiryMs).toISOString(),
        transaction: a.transaction,
      },
      { actor: { id: staff.userId, role: staff.role }, extra: { reason: 'four eyes: request', ip: ctx.ip } },
    );
    const [view] = await this.read({ requestId });
    return { waiting: view ?? null, valuation };
  }

  /** A checker's decision: approval (with its effect) or rejection, refused as the decider says. */
  async decide(
    staff: AuthInfo,
    request: { userId: string; requestId: string; makerId: string },
    approve: boolean,
    reason: string,
    ip: string | null,
  ): Promise<void> {
    const maker = await this.ledger.database.db
      .selectFrom('users')
      .select('manager_id')
      .where('id', '=', request.makerId)
      .executeTakeFirst();
    await this.ledger.execute(
      walletDecider,
      request.userId,
      {
        type: 'DecideApproval',
        requestId: request.requestId,
        approve,
        checker: { id: staff.userId, role: staff.role },
        makerManagerId: maker?.manager_id ?? null,
        reason,
        now: new Date().toISOString(),
      },
      { actor: { id: staff.userId, role: staff.role }, extra: { reason: approve ? 'four eyes: approve' : 'four eyes: reject', ip } },
    );
  }

  /** Writes the expiry event of every waiting request past its time (a no-op when another instance did). */
  async expireDue(): Promise<number> {
    const due = await this.ledger.database.db
      .selectFrom('approval_requests')
      .select(['request_id', 'user_id'])
      .where('status', '=', 'pending')
      .where('expires_at', '<=', new Date())
      .limit(500)
      .execute();
    for (const r of due) {
      await this.ledger.execute(
        walletDecider,
        r.user_id,
        { type: 'ExpireApproval', requestId: r.request_id, now: new Date().toISOString() },
        { actor: { id: 'system', role: 'SYSTEM' }, extra: { reason: 'four eyes: expired' } },
      );
    }
    return due.length;
  }

  /** Requests as the screens show them, newest first. */
  async read(filter: {
    requestId?: string;
    status?: string;
    makerId?: string;
    userId?: string;
    transactionIds?: string[];
    team?: string;
    limit?: number;
  }): Promise<ApprovalView[]> {
    const where = [sql`true`];
    if (filter.requestId) where.push(sql`a.request_id = ${filter.requestId}::uuid`);
    if (filter.status) where.push(sql`a.status = ${filter.status}`);
    if (filter.makerId) where.push(sql`a.maker_id = ${filter.makerId}::uuid`);
    if (filter.userId) where.push(sql`a.user_id = ${filter.userId}::uuid`);
    if (filter.transactionIds) where.push(sql`a.transaction_id = any(${filter.transactionIds}::uuid[])`);
    // A manager decides the requests of the workers who report to them.
    if (filter.team) where.push(sql`a.maker_role = 'WORKER' and m.manager_id = ${filter.team}::uuid`);
    const { rows } = await sql<Record<string, string | Date | null>>`
      select a.request_id, a.user_id, c.email as customer_email, c.full_name as customer_name, a.action, a.transaction_id, a.asset_id,
        a.amount::text, a.price_usd::text, a.value_usd::text, a.maker_id, m.email as maker_email, m.full_name as maker_name, a.status,
        a.checker_id, k.email as checker_email, k.full_name as checker_name, a.reason, a.requested_at, a.expires_at, a.decided_at
      from approval_requests a
        left join users c on c.id = a.user_id
        left join users m on m.id = a.maker_id
        left join users k on k.id = a.checker_id
      where ${sql.join(where, sql` and `)}
      order by a.requested_at desc, a.request_id limit ${filter.limit ?? 200}`.execute(this.ledger.database.db);
    const text = (v: string | Date | null | undefined) => (v == null ? null : String(v));
    const time = (v: string | Date | null | undefined) => (v == null ? null : new Date(v).toISOString());
    return rows.map((r) => ({
      requestId: String(r.request_id),
      userId: String(r.user_id),
      customerEmail: text(r.customer_email),
      customerName: text(r.customer_name),
      action: r.action as ApprovalAction,
      transactionId: String(r.transaction_id),
      assetId: String(r.asset_id),
      amount: formatAmount(money(String(r.amount))),
      priceUsd: formatAmount(money(String(r.price_usd))),
      valueUsd: money(String(r.value_usd)).toFixed(2),
      makerId: String(r.maker_id),
      makerEmail: text(r.maker_email),
      makerName: text(r.maker_name),
      status: String(r.status) as ApprovalStatus,
      checkerId: text(r.checker_id),
      checkerEmail: text(r.checker_email),
      checkerName: text(r.checker_name),
      reason: text(r.reason),
      requestedAt: time(r.requested_at)!,
      expiresAt: time(r.expires_at)!,
      decidedAt: time(r.decided_at),
    }));
  }
}

/**
 * Tells the people concerned that the approvals list changed, once the read table shows it:
 * the maker, the maker's manager and every admin (their Approvals tabs refetch).
 */
export function approvalHints(ledger: LedgerContext, hub: RealtimeHub): FeedHandler {
  return {
    wants: (e) => isApprovalEventType(e.type),
    async handle(events) {
      const makers = [...new Set(events.map((e) => (e.data as { makerId: string }).makerId))];
      const people = await ledger.database.db
        .selectFrom('users')
        .select(['id', 'manager_id'])
        .where((eb) => eb.or([eb('id', 'in', makers), eb('role', '=', 'ADMIN')]))
        .execute();
      const told = new Set<string>(makers);
      for (const p of people) {
        told.add(p.id);
        if (p.manager_id && makers.includes(p.id)) told.add(p.manager_id);
      }
      for (const userId of told) hub.publish(userId, 'approvals', { changed: true });
    },
  };
}
