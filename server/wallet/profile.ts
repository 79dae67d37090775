import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { ASSET_IDS } from '../../ledger/assets.js';
import { formatAmount, money } from '../../ledger/money.js';

/**
 * The profile-details answer (spec 001 section 3, spec 002 section 3): permissions and
 * notes, KYC fields, and the per-asset maps. Amounts are decimal strings.
 */
export async function profileDetails(db: Kysely<DB>, userId: string) {
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!user) return null;
  const profile = await db.selectFrom('user_profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();
  const rows = await db.selectFrom('balances').selectAll().where('user_id', '=', userId).execute();
  const map = (pick: (r: (typeof rows)[number]) => string) =>
    Object.fromEntries(ASSET_IDS.map((a) => {
      const row = rows.find((r) => r.asset_id === a);
      return [a, row ? formatAmount(money(pick(row))) : '0'];
    }));
  return {
    user_id: user.id,
    email: user.email,
    created_at: new Date(user.created_at).toISOString(),
    banned_until: user.banned_until ? new Date(user.banned_until).toISOString() : null,
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
