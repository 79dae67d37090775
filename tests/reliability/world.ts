import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { bearer, registeredCustomer, signIn, type TestApp } from '../support/test-app.js';
import { createStaff } from '../../server/auth/staff-accounts.js';
import { walletDecider } from '../../ledger/wallet/decider.js';
import { deposit, recorded } from '../../ledger/wallet/wallet.arbitraries.js';

export const ROLES = ['anonymous', 'USER', 'WORKER', 'MANAGER', 'ADMIN'] as const;
export type Role = (typeof ROLES)[number];

/** The ids of one customer's things, as a request names them. */
export interface CustomerIds {
  userId: string;
  transactionId: string;
  bankId: string;
  cardId: string;
  notificationId: string;
  factorId: string;
  /** A second bank account, for the calls that remove one. */
  spareBankId: string;
  /** A support ticket the customer opened. */
  ticketId: string;
}

/** The ids a request may carry: a customer's, a worker's, and the caller's own. */
export interface Ids extends CustomerIds {
  workerId: string;
  /** own: the manager of the world; foreign: an id that is no manager of anyone here (the admin). */
  managerId: string;
  /** own: a worker of the manager that only password resets touch; foreign: the worker without a manager. */
  spareWorkerId: string;
  /** The caller's own user id (staff acting on their own account). */
  selfId: string;
}

export interface Session {
  access_token: string;
  refresh_token: string;
  user: { id: string; email: string };
}

export interface World {
  t: TestApp;
  passwords: Record<Exclude<Role, 'anonymous'>, string>;
  emails: Record<Exclude<Role, 'anonymous'>, string>;
  /** The customer who calls (USER role). */
  self: CustomerIds;
  /** Another customer, nobody's. */
  other: CustomerIds;
  /** A customer claimed by the worker, whose manager is the manager. */
  owned: CustomerIds;
  worker: string;
  /** A worker who reports to nobody in this world. */
  otherWorker: string;
  /** A second worker of the manager, whose password the resets may change. */
  spareWorker: string;
  manager: string;
  admin: string;
  session(role: Role, opts?: { fresh?: boolean }): Promise<Session | null>;
  headers(role: Role, opts?: { fresh?: boolean }): Promise<Record<string, string>>;
  eventCount(): Promise<number>;
}

async function staffSession(t: TestApp, email: string, role: 'WORKER' | 'MANAGER' | 'ADMIN', password: string) {
  const created = await createStaff(t.app.authServices.accounts, { email, fullName: `${role} Person`, role });
  const first = await signIn(t, email, created.password);
  const changed = await t.app.inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(first.access_token), payload: { password } });
  if (changed.statusCode !== 200) throw new Error(`password change ${changed.statusCode} ${changed.body}`);
  return first;
}

/** A customer with a settled deposit (a transaction and a notification), a bank account, a card and an unverified authenticator. */
async function furnish(t: TestApp, s: Session): Promise<CustomerIds> {
  const h = bearer(s.access_token);
  const tx = await t.app.ledger.execute(walletDecider, s.user.id, recorded('5', 'Complete'), { actor: { id: 'staff', role: 'ADMIN' } });
  const txId = (tx.events[0]!.data as { transactionId: string }).transactionId;
  const dep = deposit('1');
  await t.app.ledger.execute(walletDecider, s.user.id, dep, { actor: { id: s.user.id, role: 'USER' } });
  const depId = (dep as { transactionId: string }).transactionId;
  await t.app.ledger.execute(
    walletDecider,
    s.user.id,
    { type: 'SettleTransaction', transactionId: depId, by: { system: 'test' } },
    { actor: { id: 'staff', role: 'ADMIN' } },
  );
  const bank = await t.app.inject({
    method: 'POST',
    url: '/functions/v1/add-raw-payment-method',
    headers: h,
    payload: { type: 'bank_account', bank_name: 'First Bank', account_number: 'DE89370400440532013000' },
  });
  const card = await t.app.inject({
    method: 'POST',
    url: '/functions/v1/add-raw-payment-method',
    headers: h,
    payload: { type: 'credit_card', cardNumber: '4242 4242 4242 4242', cardHolderName: 'Card Holder', expiryDate: '12/39', cvv: '123' },
  });
  const spare = await t.app.inject({
    method: 'POST',
    url: '/functions/v1/add-raw-payment-method',
    headers: h,
    payload: { type: 'bank_account', bank_name: 'Spare Bank', account_number: 'GB82WEST12345698765432' },
  });
  const factor = await t.app.inject({ method: 'POST', url: '/auth/v1/factors', headers: h, payload: { factor_type: 'totp' } });
  const ticket = await t.app.inject({
    method: 'POST',
    url: '/functions/v1/create-support-ticket',
    headers: h,
    payload: { subject: 'Help', message: 'Where is my money?', urgency: 'medium' },
  });
  const { rows } = await sql<{ id: string }>`select id from notifications where user_id = ${s.user.id} limit 1`.execute(t.database.db);
  return {
    userId: s.user.id,
    transactionId: txId,
    bankId: bank.json().paymentMethod.id,
    cardId: card.json().paymentMethod.id,
    notificationId: rows[0]?.id ?? randomUUID(),
    factorId: factor.json().id,
    spareBankId: spare.json().paymentMethod.id,
    ticketId: ticket.statusCode === 200 ? ticket.json().id : randomUUID(),
  };
}

/** Three customers, a worker with a manager, a worker without one, and an admin, each signed in. */
export async function buildWorld(t: TestApp, prefix: string): Promise<World> {
  const emails = {
    USER: `${prefix}-self@example.com`,
    WORKER: `${prefix}-worker@example.com`,
    MANAGER: `${prefix}-manager@example.com`,
    ADMIN: `${prefix}-admin@example.com`,
  };
  const passwords = { USER: 'self-pass-123', WORKER: 'worker-pass-123', MANAGER: 'manager-pass-123', ADMIN: 'admin-pass-123' };
  const selfS = await registeredCustomer(t, emails.USER, passwords.USER);
  const otherS = await registeredCustomer(t, `${prefix}-other@example.com`, 'other-pass-123');
  const ownedS = await registeredCustomer(t, `${prefix}-owned@example.com`, 'owned-pass-123');
  const sessions = new Map<Role, Session>();
  sessions.set('USER', selfS);
  for (const role of ['WORKER', 'MANAGER', 'ADMIN'] as const)
    sessions.set(role, await staffSession(t, emails[role], role, passwords[role]));
  const otherWorker = await staffSession(t, `${prefix}-worker2@example.com`, 'WORKER', 'worker2-pass-123');
  const spareWorker = await staffSession(t, `${prefix}-worker3@example.com`, 'WORKER', 'worker3-pass-123');
  const worker = sessions.get('WORKER')!.user.id;
  const manager = sessions.get('MANAGER')!.user.id;
  const admin = sessions.get('ADMIN')!.user.id;
  const adminActor = { id: admin, role: 'ADMIN' };
  await t.app.authServices.accounts.record(worker, { type: 'AssignToManager', managerId: manager }, adminActor);
  await t.app.authServices.accounts.record(spareWorker.user.id, { type: 'AssignToManager', managerId: manager }, adminActor);
  await t.app.authServices.accounts.record(ownedS.user.id, { type: 'Claim', workerId: worker }, { id: worker, role: 'WORKER' });

  const self = await furnish(t, selfS);
  const other = await furnish(t, otherS);
  const owned = await furnish(t, ownedS);

  const world: World = {
    t,
    emails,
    passwords,
    self,
    other,
    owned,
    worker,
    otherWorker: otherWorker.user.id,
    spareWorker: spareWorker.user.id,
    manager,
    admin,
    async session(role, opts = {}) {
      if (role === 'anonymous') return null;
      const kept = sessions.get(role);
      if (kept && !opts.fresh) {
        const alive = await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: bearer(kept.access_token) });
        if (alive.statusCode === 200) return kept;
      }
      const s = await signIn(t, emails[role], passwords[role]);
      sessions.set(role, s);
      return s;
    },
    async headers(role, opts) {
      const s = await world.session(role, opts);
      const headers: Record<string, string> = s ? { authorization: `Bearer ${s.access_token}` } : {};
      return headers;
    },
    async eventCount() {
      const { rows } = await sql<{ n: string | number }>`select count(*) as n from events`.execute(t.database.db);
      return Number(rows[0]!.n);
    },
  };
  return world;
}
