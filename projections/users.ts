import { sql } from 'kysely';
import { isUserEventType, USER_STREAM_PREFIX, type UserEvent } from '../ledger/user/events.js';
import { table, type Projection } from './projection.js';

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
      const at = recorded.recordedAt.toISOString();
      const set = (assignments: ReturnType<typeof sql>) =>
        sql`update ${users} set ${assignments}, updated_at = ${at}::timestamptz where id = ${id}::uuid`.execute(target.trx);
      switch (e.type) {
        case 'user.registered':
          await sql`insert into ${users} (id, email, full_name, role, email_confirmed_at, requires_password_change, created_at, updated_at)
            values (${id}::uuid, ${e.data.email}, ${e.data.fullName}, ${e.data.role},
              ${e.data.emailConfirmed ? at : null}::timestamptz, ${e.data.requiresPasswordChange}, ${at}::timestamptz, ${at}::timestamptz)`.execute(target.trx);
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
            values (${recorded.eventId}::uuid, ${id}::uuid, ${at}::timestamptz, ${e.data.ipAddress}, ${e.data.userAgent})`.execute(target.trx);
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
        default:
          break; // password and factor facts: the audit trail only; their state lives in auth tables
      }
    }
  },
};
