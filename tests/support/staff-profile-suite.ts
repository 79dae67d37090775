import type { InjectOptions } from 'fastify';
import { BELOW_FOUR_EYES_LIMIT, createTestApp, bearer, registeredCustomer, signIn, type TestApp } from './test-app.js';
import { createStaff } from '../../server/auth/staff-accounts.js';

/**
 * What the staff user profile's suites (server/routes/staff-profile/profile-*.int.spec.ts) share:
 * an app below the four-eyes limit with a worker, the customer the worker claimed and a customer
 * nobody owns, and the calls the tests make. It lives here and not beside the suites because
 * every module of a route folder that is not a spec is imported by the app's autoload and built
 * into the server.
 */

export type StaffSession = Awaited<ReturnType<typeof signIn>> & { userId: string };
export type CustomerSession = Awaited<ReturnType<typeof registeredCustomer>>;

export interface ProfileSuite {
  t: TestApp;
  /** Wes, a worker. */
  worker: StaffSession;
  /** Dana (dana@example.com, dana-pass-12), claimed by the worker. */
  customer: CustomerSession;
  /** A customer nobody owns. */
  stranger: CustomerSession;
}

export async function openProfileSuite(): Promise<ProfileSuite> {
  const t = await createTestApp(BELOW_FOUR_EYES_LIMIT);
  const inject = (opts: InjectOptions) => t.app.inject(opts);
  const staffSession = async (role: 'WORKER' | 'MANAGER' | 'ADMIN', email: string, fullName: string): Promise<StaffSession> => {
    const { password, userId } = await createStaff(t.app.authServices.accounts, { email, fullName, role });
    const first = await signIn(t, email, password);
    await inject({ method: 'PUT', url: '/auth/v1/user', headers: bearer(first.access_token), payload: { password: 'staff-own-pass-1' } });
    return { ...(await signIn(t, email, 'staff-own-pass-1')), userId };
  };
  const worker = await staffSession('WORKER', 'wes@example.com', 'Wes Worker');
  const customer = await registeredCustomer(t, 'dana@example.com', 'dana-pass-12');
  const stranger = await registeredCustomer(t, 'stranger@example.com', 'stranger-pass-1');
  await t.app.authServices.accounts.record(
    customer.user.id,
    { type: 'Claim', workerId: worker.userId },
    { id: worker.userId, role: 'WORKER' },
  );
  return { t, worker, customer, stranger };
}

/** The suites' calls on the app `app()` gives once it is open. */
export function profileCalls(app: () => TestApp) {
  const inject = (opts: InjectOptions) => app().app.inject(opts);
  const post = (path: string, token: string, payload: Record<string, unknown>) =>
    inject({ method: 'POST', url: `/functions/v1/${path}`, headers: bearer(token), payload });
  const details = async (token: string, userId: string) => (await post('get-user-profile-details', token, { targetUserId: userId })).json();
  return { inject, post, details };
}
