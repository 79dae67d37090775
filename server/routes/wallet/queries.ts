import { sql, type Kysely } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { DB } from '../../db/schema.js';
import { compiledOnce } from '../../db/compiled-once.js';
import { ASSET_IDS } from '../../../ledger/assets.js';
import { amountText, isoTimeText } from '../../db/text-formats.js';

/*
 * The wallet's reads (./functions.ts): the profile details and what a deposit or withdrawal
 * request checks first. The permissions a send checks are server/shared/customer-profile.ts.
 */

/** The statement of the profile details (built and compiled once: it has 27 columns). */
const detailsStatement = compiledOnce((db: Kysely<DB>, userId: string) =>
  db
    .selectFrom('users as u')
    .leftJoin('user_profiles as p', 'p.user_id', 'u.id')
    .select([
      'u.id',
      'u.email',
      sql.raw<string>(isoTimeText('u.created_at')).as('created_at'),
      sql.raw<string | null>(isoTimeText('u.banned_until')).as('banned_until'),
      'p.user_id as profile_user_id',
      'p.first_name',
      'p.last_name',
      'p.dob',
      'p.country',
      'p.city',
      'p.postal_code',
      'p.full_address',
      'p.kyc_status',
      'p.addresses',
      'p.can_buy',
      'p.can_sell',
      'p.can_swap',
      'p.can_stake',
      'p.can_send',
      'p.buy_disabled_note',
      'p.sell_disabled_note',
      'p.swap_disabled_note',
      'p.stake_disabled_note',
      'p.send_disabled_note',
      'p.dashboard_note',
      'p.assigned_worker_id',
    ])
    .select((eb) =>
      jsonArrayFrom(
        eb
          .selectFrom('balances as b')
          .select([
            'b.asset_id',
            sql.raw<string>(amountText('b.balance')).as('balance'),
            sql.raw<string>(amountText('b.pending_deposits')).as('pending_deposits'),
            sql.raw<string>(amountText('b.pending_withdrawals')).as('pending_withdrawals'),
          ])
          .whereRef('b.user_id', '=', 'u.id'),
      ).as('balance_rows'),
    )
    .where('u.id', '=', userId),
);

/**
 * The profile-details answer (spec 001 section 3, spec 002 section 3): permissions and
 * notes, KYC fields, and the per-asset maps. Amounts are decimal strings.
 *
 * One statement: the user, their profile row (left join; may not exist yet) and their
 * balance rows as a JSON array. Amounts travel as text inside the JSON, never as JSON
 * numbers, so no digit is lost; amounts and times are written in the answer's format by the
 * query (server/db/text-formats.ts).
 */
export async function profileDetails(db: Kysely<DB>, userId: string) {
  const row = (await detailsStatement(db, userId)).rows[0];
  if (!row) return null;
  const rows = row.balance_rows ?? [];
  const profile = row.profile_user_id === null ? null : row;
  const map = (pick: (r: (typeof rows)[number]) => string) =>
    Object.fromEntries(
      ASSET_IDS.map((a) => {
        const r = rows.find((x) => x.asset_id === a);
        return [a, r ? pick(r) : '0'];
      }),
    );
  return {
    user_id: row.id,
    email: row.email,
    created_at: row.created_at,
    banned_until: row.banned_until,
    first_name: profile?.first_name ?? null,
    last_name: profile?.last_name ?? null,
    dob: profile?.dob ?? null,
    country: profile?.country ?? null,
    city: profile?.city ?? null,
    postal_code: profile?.postal_code ?? null,
    full_address: profile?.full_address ?? null,
    kyc_status: profile?.kyc_status ?? 'not_started',
    balances: map((r) => r.balance),
    pendingDeposits: map((r) => r.pending_deposits),
    pendingWithdrawals: map((r) => r.pending_withdrawals),
    addresses: (profile?.addresses ?? {}) as Record<string, string>,
    can_buy: profile?.can_buy ?? true,
    can_sell: profile?.can_sell ?? true,
    can_swap: profile?.can_swap ?? true,
    can_stake: profile?.can_stake ?? true,
    can_send: profile?.can_send ?? true,
    buy_disabled_note: profile?.buy_disabled_note ?? null,
    sell_disabled_note: profile?.sell_disabled_note ?? null,
    swap_disabled_note: profile?.swap_disabled_note ?? null,
    stake_disabled_note: profile?.stake_disabled_note ?? null,
    send_disabled_note: profile?.send_disabled_note ?? null,
    dashboard_note: profile?.dashboard_note ?? null,
    assigned_worker_id: profile?.assigned_worker_id ?? null,
  };
}

/** What a deposit or withdrawal request checks: the buy/sell permissions and the chosen payment method's type. */
export type FiatChecks = {
  can_buy: boolean | null;
  can_sell: boolean | null;
  buy_disabled_note: string | null;
  sell_disabled_note: string | null;
  method_type: string | null;
};

/** The caller's buy/sell permissions and the type of the payment method they chose (theirs, or null), in one round trip. */
export async function fiatChecks(db: Kysely<DB>, userId: string, paymentMethodId: string | null): Promise<FiatChecks> {
  const { rows } = await sql<FiatChecks>`
    select p.can_buy, p.can_sell, p.buy_disabled_note, p.sell_disabled_note,
      (select m.type from user_payment_methods_raw m where m.id = ${paymentMethodId}::uuid and m.user_id = ${userId}) as method_type
    from (select 1) as one left join user_profiles p on p.user_id = ${userId}`.execute(db);
  return rows[0]!;
}
