import { sql } from 'kysely';
import { isUserEventType, USER_STREAM_PREFIX, type UserEvent } from '../ledger/user/events.js';
import { table, timestampText, type Projection } from './projection.js';

/**
 * users, user_profiles and login_history from the user streams. Accounts change rarely,
 * so events are applied one statement each.
 */
export const usersProjection: Projection = {
  name: 'users',
  tables: ['users', 'user_profiles', 'login_history'],
  handles: (type) => isUserEventType(type),

  async apply(target, events) {
    const users = table(target, 'users');
    const profiles = table(target, 'user_profiles');
    const logins = table(target, 'login_history');
    for (const recorded of events) {
      if (!isUserEventType(recorded.type)) continue;
      const e = { type: recorded.type, data: recorded.data } as UserEvent;
      const id = recorded.streamId.slice(USER_STREAM_PREFIX.length);
      const at = timestampText(recorded.recordedAt);
      const set = (assignments: ReturnType<typeof sql>) =>
        sql`update ${users} set ${assignments}, updated_at = ${at}::timestamptz where id = ${id}::uuid`.execute(target.trx);
      const setProfile = (assignments: ReturnType<typeof sql>) =>
        sql`update ${profiles} set ${assignments}, updated_at = ${at}::timestamptz where user_id = ${id}::uuid`.execute(target.trx);
      switch (e.type) {
        case 'user.registered':
          await sql`insert into ${users} (id, email, full_name, role, email_confirmed_at, requires_password_change, created_at, updated_at)
            values (${id}::uuid, ${e.data.email}, ${e.data.fullName}, ${e.data.role},
              ${e.data.emailConfirmed ? at : null}::timestamptz, ${e.data.requiresPasswordChange}, ${at}::timestamptz, ${at}::timestamptz)`.execute(
            target.trx,
          );
          break;
        case 'user.profile-created':
          await sql`insert into ${profiles} (user_id, can_buy, can_sell, created_at, updated_at)
            values (${id}::uuid, ${e.data.canBuy}, ${e.data.canSell}, ${at}::timestamptz, ${at}::timestamptz)`.execute(target.trx);
          break;
        case 'user.email-confirmed':
          await set(sql`email_confirmed_at = ${at}::timestamptz`);
          break;
        case 'user.signed-in':
          await sql`insert into ${logins} (id, user_id, timestamp, ip_address, user_agent)
            values (${recorded.eventId}::uuid, ${id}::uuid, ${at}::timestamptz, ${e.data.ipAddress}, ${e.data.userAgent})`.execute(
            target.trx,
          );
          await set(sql`last_sign_in_at = ${at}::timestamptz`);
          break;
        case 'user.password-change-required':
          await set(sql`requires_password_change = ${e.data.required}`);
          break;
        case 'user.mfa-method-changed':
          await set(sql`active_mfa_method = ${e.data.method}`);
          break;
        case 'user.banned':
          await set(sql`banned_until = ${e.data.until}::timestamptz`);
          break;
        case 'user.unbanned':
          await set(sql`banned_until = null`);
          break;
        case 'user.worker-assigned':
          await set(sql`manager_id = ${e.data.managerId}::uuid`);
          break;
        case 'user.claimed':
          await setProfile(sql`assigned_worker_id = ${e.data.workerId}::uuid, claimed_at = ${at}::timestamptz`);
          break;
        case 'user.permissions-updated': {
          const p = e.data;
          await setProfile(sql`can_buy = ${p.canBuy}, can_sell = ${p.canSell}, can_swap = ${p.canSwap}, can_stake = ${p.canStake},
            can_send = ${p.canSend}, buy_disabled_note = ${p.buyDisabledNote}, sell_disabled_note = ${p.sellDisabledNote},
            swap_disabled_note = ${p.swapDisabledNote}, stake_disabled_note = ${p.stakeDisabledNote}, send_disabled_note = ${p.sendDisabledNote}`);
          break;
        }
        case 'user.wallet-address-set':
          await setProfile(sql`addresses = addresses || jsonb_build_object(${e.data.assetId}::text, ${e.data.address}::text)`);
          break;
        case 'user.dashboard-note-set':
          await setProfile(sql`dashboard_note = ${e.data.note}`);
          break;
        case 'user.kyc-submitted': {
          const k = e.data;
          await setProfile(sql`kyc_status = 'pending', first_name = ${k.firstName}, last_name = ${k.lastName}, dob = ${k.dob},
            country = ${k.country}, city = ${k.city}, postal_code = ${k.postalCode}, full_address = ${k.fullAddress},
            identity_doc = ${JSON.stringify(k.identityDoc)}::jsonb, residence_doc = ${JSON.stringify(k.residenceDoc)}::jsonb,
            kyc_submitted_at = ${at}::timestamptz`);
          break;
        }
        case 'user.kyc-approved':
          await setProfile(sql`kyc_status = 'verified'`);
          break;
        case 'user.kyc-rejected':
          await setProfile(sql`kyc_status = 'rejected'`);
          break;
        default:
          break; // password and factor facts: the audit trail only; their state lives in auth tables
      }
    }
  },
};
