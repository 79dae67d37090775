import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Decimal } from 'decimal.js';
import type { AuthInfo } from '../auth/guard.js';
import type { LedgerContext } from '../context.js';
import type { PriceCache } from '../prices/price-cache.js';
import { usdPrice } from '../prices/usd-price.js';
import { walletDecider } from '../../ledger/wallet/decider.js';
import {
  APPROVAL_MESSAGES,
  controlsMaker,
  isApprovalEventType,
  type ApprovalAction,
  type MakerController,
  type StaffRole,
} from '../../ledger/wallet/approvals.js';
import type { FourEyesPolicy, PriceFact, StaffAct } from '../../ledger/wallet/staff-rule.js';
import type { WalletCommand } from '../../ledger/wallet/commands.js';
import { userStream } from '../../ledger/user/events.js';
import { readClosedThrough } from '../../ledger/books/periods.js';
import { KeyedLock } from '../../ledger/handling/keyed-lock.js';
import type { AssetId } from '../../ledger/assets.js';
import { formatAmount, money } from '../../ledger/money.js';
import type { RealtimeHub } from '../realtime/hub.js';
import type { FeedHandler } from '../realtime/live-feed.js';
import type { Approval, ApprovalStatus } from '../../ledger/contract/approvals.js';

const DAY_MS = 86_400_000;
/** A price more than 50% away from its last hour's median cannot value a staff action alone. */
const PRICE_BAND = '0.5';

/** What the screens show of a request under the two-person rule (ledger/contract/approvals.ts). */
export type ApprovalView = Approval;

/** The answer of a staff call whose action now waits for a second person. */
export const AWAITING_SECOND_APPROVAL = 'Awaiting second approval';

/**
 * The two-person rule on the server's side: it gathers the facts a staff money action is judged
 * on (the policy, the price of the moment with its age and recent median, what the maker did
 * alone today) and hands them to the wallet decider with the command, which alone decides
 * whether the action runs or waits (ledger/wallet/staff-rule.ts). It also gives a checker's
 * decision the facts on the maker's account, lapses requests past their expiry (lazily: the
 * first reader after the time writes the expiry event; the wallet stream's expected revision
 * makes it one event however many instances read), and reads requests for the screens.
 */
export class FourEyes {
  readonly limitUsd: Decimal;
  readonly dailyLimitUsd: Decimal;
  /** The rule's clock: the time of each action and decision. */
  now: () => Date = () => new Date();
  /**
   * One staff money action of a maker at a time in this process, so that two of them cannot both
   * read the same daily sum (across instances the sum can be short by what runs at that moment
   * on another instance; `ledger verify` recomputes the sums from the log: docs/decisions.md).
   */
  private readonly makers = new KeyedLock();

  constructor(
    private readonly ledger: LedgerContext,
    private readonly prices: PriceCache,
  ) {
    const config = ledger.config;
    this.limitUsd = money(config.FOUR_EYES_LIMIT_USD);
    this.dailyLimitUsd = config.FOUR_EYES_DAILY_LIMIT_USD ? money(config.FOUR_EYES_DAILY_LIMIT_USD) : this.limitUsd.times(5);
  }

  policy(): FourEyesPolicy {
    const config = this.ledger.config;
    return {
      limitUsd: formatAmount(this.limitUsd),
      dailyLimitUsd: formatAmount(this.dailyLimitUsd),
      maxPriceAgeS: config.PRICE_MAX_AGE_S,
      priceBand: PRICE_BAND,
      expiryHours: config.FOUR_EYES_EXPIRY_HOURS,
    };
  }

  /** The price an action of `assetId` is valued at, with its age and the last hour's median; 503 without prices. */
  priceFact(assetId: AssetId): PriceFact {
    const usd = usdPrice(this.prices, assetId);
    const median = this.prices.medianPrice(assetId);
    // USDT without a feed price counts as 1 (usdPrice): as old as the prices, and its own median.
    return {
      usd: formatAmount(usd),
      ageS: this.prices.ageSeconds() ?? Number.POSITIVE_INFINITY,
      medianUsd: median === null ? null : formatAmount(money(String(median))),
    };
  }

  /** What the maker moved alone, on every wallet, in the 24 hours before `now` (the staff_limit_usage read model). */
  async makerDayUsd(makerId: string, now: Date): Promise<string> {
    const row = await this.ledger.database.db
      .selectFrom('staff_limit_usage')
      .select(sql<string>`coalesce(sum(value_usd), 0)::text`.as('sum'))
      .where('maker_id', '=', makerId)
      .where('valued_at', '>', new Date(now.getTime() - DAY_MS))
      .executeTakeFirst();
    return row?.sum ?? '0';
  }

  /**
   * Runs a staff command that moves money: `command` is given the facts of the rule, the wallet
   * decider decides. Answers the request when the action now waits for a second person.
   */
  async run(
    staff: AuthInfo,
    customerId: string,
    assetId: AssetId,
    command: (act: StaffAct) => WalletCommand,
    ctx: { reason: string; ip: string | null },
  ): Promise<{ waiting: ApprovalView | null }> {
    return this.makers.run(staff.userId, async () => {
      const now = this.now();
      const act: StaffAct = {
        maker: { id: staff.userId, role: staff.role as StaffRole },
        now: now.toISOString(),
        policy: this.policy(),
        price: this.priceFact(assetId),
        makerDayUsd: await this.makerDayUsd(staff.userId, now),
        requestId: randomUUID(),
      };
      const result = await this.ledger.execute(walletDecider, customerId, command(act), {
        actor: { id: staff.userId, role: staff.role },
        extra: { reason: ctx.reason, ip: ctx.ip },
      });
      if (!result.events.some((e) => e.type === 'wallet.approval-requested')) return { waiting: null };
      const [view] = await this.read({ requestId: act.requestId });
      return { waiting: view ?? null };
    });
  }

  /**
   * Who created the maker's account or set its password (a reset by staff), and when: such a
   * person could have acted as the maker (separation of duties), read from the maker's own stream.
   */
  async makerControllers(makerId: string): Promise<MakerController[]> {
    const events = await this.ledger.store.readStream(userStream(makerId));
    const controllers: MakerController[] = [];
    for (const e of events) {
      const byOther = e.metadata.actorId !== makerId;
      const sets =
        e.type === 'user.registered' || (e.type === 'user.password-changed' && (e.data as { method?: string }).method === 'staff-reset');
      if (byOther && sets) controllers.push({ id: e.metadata.actorId, at: e.metadata.occurredAt });
    }
    return controllers;
  }

  /** The separation-of-duties refusal the decider would give this checker for this maker now, or null. */
  async separationRefusal(checkerId: string, makerId: string): Promise<string | null> {
    const separation = {
      controllers: await this.makerControllers(makerId),
      days: this.ledger.config.FOUR_EYES_SEPARATION_DAYS,
      now: this.now().toISOString(),
    };
    return controlsMaker(checkerId, separation) ? APPROVAL_MESSAGES.separation : null;
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
        makerControllers: await this.makerControllers(request.makerId),
        closedThrough: await readClosedThrough(this.ledger.store),
        separationDays: this.ledger.config.FOUR_EYES_SEPARATION_DAYS,
        reason,
        now: this.now().toISOString(),
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
      .where('expires_at', '<=', this.now())
      .limit(500)
      .execute();
    for (const r of due) {
      await this.ledger.execute(
        walletDecider,
        r.user_id,
        { type: 'ExpireApproval', requestId: r.request_id, now: this.now().toISOString() },
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
