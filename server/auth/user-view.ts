import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB, UsersTable } from '../db/schema.js';
import type { EventStore } from '../../ledger/event-store/port.js';
import { passwordChangeReason } from '../../ledger/user/user.js';
import { USER_STREAM_PREFIX } from '../../ledger/user/events.js';
import type { UserView } from '../../ledger/contract/access.js';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export type ViewedUser = Pick<UsersTable, 'id' | 'email' | 'full_name' | 'role' | 'requires_password_change' | 'active_mfa_method'> & {
  email_confirmed_at: Date | null;
  banned_until: Date | null;
  created_at: Date | string;
  last_sign_in_at: Date | null;
};

/** The user as the auth calls answer it (the access contract's UserView), with their second factors. */
export async function userView(db: Kysely<DB>, store: EventStore, user: ViewedUser): Promise<UserView> {
  const factors = await db.selectFrom('auth_mfa_factors').selectAll().where('user_id', '=', user.id).orderBy('created_at').execute();
  return {
    id: user.id,
    email: user.email,
    email_confirmed_at: iso(user.email_confirmed_at),
    banned_until: iso(user.banned_until),
    created_at: iso(user.created_at)!,
    last_sign_in_at: iso(user.last_sign_in_at),
    user_metadata: {
      full_name: user.full_name,
      role: user.role,
      requires_password_change: user.requires_password_change,
      ...(user.requires_password_change
        ? { password_change_reason: passwordChangeReason(await store.readStream(`${USER_STREAM_PREFIX}${user.id}`)) }
        : {}),
      active_mfa_method: user.active_mfa_method,
    },
    factors: factors.map((f) => ({
      id: f.id,
      factor_type: f.factor_type,
      status: f.status,
      friendly_name: f.friendly_name,
      created_at: iso(f.created_at)!,
    })),
    identities: [],
  };
}

/** What a sign-up answers for a new, unconfirmed account (the same whether or not the address had one). */
export function unconfirmedView(email: string, fullName: string): UserView {
  return {
    id: randomUUID(),
    email: email.trim(),
    email_confirmed_at: null,
    banned_until: null,
    created_at: new Date().toISOString(),
    last_sign_in_at: null,
    user_metadata: { full_name: fullName.trim(), role: 'USER', requires_password_change: false, active_mfa_method: null },
    factors: [],
    identities: [],
  };
}
