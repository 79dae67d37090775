import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { Role } from '../../ledger/user/events.js';
import type { Accounts } from './accounts.js';

/** A readable one-time password: 4 groups of 4 from an alphabet without look-alikes, plus a digit. */
export function temporaryPassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const groups = Array.from({ length: 4 }, () => Array.from({ length: 4 }, () => alphabet[crypto.randomInt(alphabet.length)]).join(''));
  return `${groups.join('-')}-${crypto.randomInt(10)}`;
}

/** An operator creates a staff account; the password is shown once and must be changed at first sign-in. */
export async function createStaff(accounts: Accounts, input: { email: string; fullName: string; role: Exclude<Role, 'USER'> }) {
  const password = temporaryPassword();
  const userId = await accounts.createAccount({
    email: input.email,
    password,
    fullName: input.fullName,
    role: input.role,
    source: 'operator',
    requiresPasswordChange: true,
    emailConfirmed: true,
    actor: { id: 'operator', role: 'OPERATOR' },
  });
  return { userId, password };
}

const DEMO: { email: string; fullName: string; role: Role }[] = [
  { email: 'customer@demo.wallet-ledger.local', fullName: 'Dana Customer', role: 'USER' },
  { email: 'worker@demo.wallet-ledger.local', fullName: 'Wes Worker', role: 'WORKER' },
  { email: 'manager@demo.wallet-ledger.local', fullName: 'Mona Manager', role: 'MANAGER' },
  { email: 'admin@demo.wallet-ledger.local', fullName: 'Ada Admin', role: 'ADMIN' },
];

/**
 * On the first start of an empty embedded database: a demo customer and one staff member
 * of each role, with generated passwords printed once and kept in DATA_DIR/demo-users.txt.
 */
export async function ensureDemoUsers(db: Kysely<DB>, accounts: Accounts, dataDir: string): Promise<string | null> {
  const any = await db.selectFrom('auth_email_index').select('user_id').limit(1).executeTakeFirst();
  if (any) return null;
  const lines = ['Demo accounts (embedded database only; set DEMO_USERS=false to skip):'];
  const actor = { id: 'system', role: 'SYSTEM' };
  const ids = new Map<Role, string>();
  for (const d of DEMO) {
    const password = temporaryPassword();
    // Staff passwords are one-time, as from `ledger create-staff`; the customer's is not.
    const requiresPasswordChange = d.role !== 'USER';
    ids.set(d.role, await accounts.createAccount({ ...d, password, source: 'demo', requiresPasswordChange, emailConfirmed: true, actor }));
    lines.push(
      `  ${d.role.padEnd(8)} ${d.email}  password: ${password}${requiresPasswordChange ? '  (one-time: change it at first sign-in)' : ''}`,
    );
  }
  // The demo worker reports to the demo manager: the manager's announcements, All Users and
  // the worker's requests under the two-person rule work at once.
  await accounts.record(ids.get('WORKER')!, { type: 'AssignToManager', managerId: ids.get('MANAGER')! }, actor);
  lines.push('  (the worker reports to the manager)');
  const text = lines.join('\n');
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'demo-users.txt'), text + '\n', { mode: 0o600 });
  return text;
}
