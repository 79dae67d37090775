import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { createTestApp, signIn, type TestApp } from '../support/test-app.js';
import { buildWorld, type Ids, type Role, type World } from './world.js';
import { ROUTE_POLICY, type RoutePolicy } from './route-policy.js';
import { variants, type Variant } from './fuzz-variants.js';
import { MULTIPART_CASES, multipartVariants } from './fuzz-multipart.js';

/**
 * Every route in route-policy.ts, called with generated malformed variations of its sample
 * request (wrong JSON types, odd numbers and strings, missing and extra fields, bad path
 * params, repeated query keys, non-JSON bodies) by the callers it concerns: no answer may be
 * a 5xx. hostile-input.int.spec.ts checks the finer contract (a message, nothing written).
 * FUZZ_RUNS and FUZZ_SEED search longer or elsewhere (FUZZ_RUNS=300 takes about two minutes);
 * FUZZ_STATUSES=1 prints the answers per route and caller, to see how deep the samples reach.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_126);
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);

/**
 * Samples that pass the domain checks too, where route-policy.ts's only pass the schema (the
 * matrix needs no more): a fuzzed field then reaches the decider and the database.
 */
const DEEPER: Record<
  string,
  (ids: Ids, sample: { query?: Record<string, string>; body?: unknown }) => { query?: Record<string, string>; body?: unknown }
> = {
  'GET /api/v1/admin/balance-at': (_ids, s) => ({ query: { ...s.query, at: '2026-06-01' } }),
  'POST /functions/v1/add-transaction': (_ids, s) => ({
    body: { ...(s.body as object), sentAt: new Date(Date.now() - 60_000).toISOString(), senderAddress: 'staff-wallet', txid: 'fuzz' },
  }),
  'POST /functions/v1/create-stake-transaction': (_ids, s) => ({
    body: { ...(s.body as object), amount: '0.06', durationDays: 30, rate: '9.1' },
  }),
  // The world's admin sees every customer's tickets; the owned customer's ticket is the one it furnished.
  'POST /functions/v1/update-ticket-status': (ids, s) => ({ body: { ...(s.body as object), ticketId: ids.ticketId } }),
};

/** The signed-in callers a route concerns: always a customer and an admin, plus the staff role it names. */
function callersOf(entry: RoutePolicy): Exclude<Role, 'anonymous'>[] {
  const roles: Exclude<Role, 'anonymous'>[] = ['USER', 'ADMIN'];
  if (entry.policy === 'worker-only' || entry.policy === 'staff-owner' || entry.policy === 'staff') roles.push('WORKER');
  if (entry.policy === 'manager-only' || entry.policy === 'manager-of-worker') roles.push('MANAGER');
  return roles;
}

describe('route fuzz: malformed variations of every route sample, as each caller, never a 5xx', () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await createTestApp();
    w = await buildWorld(t, 'fuzz');
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  /**
   * Routes that end or change the caller's session or password (sign-out, password and e-mail
   * changes, removing a factor) are called by spare accounts of the same role, replaced when a
   * call ended their session, so that the world's callers keep theirs for the other routes.
   */
  const spares = new Map<string, string>();
  let spareCount = 0;
  const spareHeaders = async (role: Exclude<Role, 'anonymous'>): Promise<Record<string, string>> => {
    const token = spares.get(role);
    if (token) {
      const alive = await t.app.inject({ method: 'GET', url: '/auth/v1/user', headers: { authorization: `Bearer ${token}` } });
      if (alive.statusCode === 200) return { authorization: `Bearer ${token}` };
    }
    const email = `fuzz-spare-${++spareCount}-${role.toLowerCase()}@example.com`;
    // The world's password for the role, so that samples that repeat it (verify-and-update-password) pass.
    const password = w.passwords[role];
    await t.app.authServices.accounts.createAccount({
      email,
      password,
      fullName: `Spare ${role}`,
      role,
      source: 'operator',
      requiresPasswordChange: false,
      emailConfirmed: true,
      actor: { id: 'operator', role: 'OPERATOR' },
    });
    const access = (await signIn(t, email, password)).access_token;
    spares.set(role, access);
    return { authorization: `Bearer ${access}` };
  };
  const changesSession = (key: string, entry: RoutePolicy) =>
    Boolean(entry.fresh) || ['PUT /auth/v1/user', 'POST /functions/v1/verify-and-update-password', 'POST /auth/v1/logout'].includes(key);
  const randomIp = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;

  it('answers every malformed request below 500', async () => {
    const started = Date.now();
    const failures: string[] = [];
    let sent = 0;
    const statuses = new Map<string, number>();
    const routes = t.app.routeInventory.filter((r) => !r.websocket);
    for (const route of routes) {
      const key = `${route.method} ${route.url}`;
      const entry = ROUTE_POLICY[key];
      if (!entry || entry.coveredBy) continue;
      const multipart = JSON.stringify(route.schema?.consumes ?? []).includes('multipart/form-data');
      for (const role of callersOf(entry)) {
        const selfId = (await w.session(role).catch(() => null))?.user.id ?? w.self.userId;
        const customer = role === 'USER' ? w.self : w.owned;
        const ids: Ids = { ...customer, workerId: w.worker, managerId: w.manager, spareWorkerId: w.spareWorker, selfId };
        const spec = entry.request?.(ids, { password: w.passwords[role] }) ?? {};
        const sample = { url: spec.url ?? route.url, query: spec.query, body: spec.body, ...DEEPER[key]?.(ids, spec) };
        const send = async (v: Variant) => {
          const caller = changesSession(key, entry) ? await spareHeaders(role) : await w.headers(role);
          const headers = { ...caller, ...spec.headers, ...(v.contentType ? { 'content-type': v.contentType } : {}), ...v.headers };
          let status: number;
          let body: string;
          try {
            const res = await t.app.inject({
              method: route.method as InjectOptions['method'],
              url: v.url,
              headers,
              payload: v.payload,
              remoteAddress: randomIp(),
            });
            status = res.statusCode;
            body = res.body;
          } catch (err) {
            status = 599;
            body = `inject threw: ${(err as Error).message}`;
          }
          sent++;
          const bucket = `${key} ${role} ${status}`;
          statuses.set(bucket, (statuses.get(bucket) ?? 0) + 1);
          if (status >= 500) failures.push(`${key} as ${role}: ${v.label} -> ${status} ${body.slice(0, 160)}`);
        };
        if (multipart) {
          for (const c of MULTIPART_CASES) await send({ ...c, url: sample.url });
          if (route.url.endsWith('/upload-ticket-attachment')) {
            await fc.assert(
              fc.asyncProperty(multipartVariants(customer.ticketId), async (v) => {
                await send({ ...v, url: sample.url, payload: v.body });
                return true;
              }),
              { numRuns: RUNS, seed: SEED },
            );
          }
          continue;
        }
        await fc.assert(
          fc.asyncProperty(variants(route, sample), async (v) => {
            await send(v);
            return true;
          }),
          { numRuns: RUNS, seed: SEED },
        );
      }
    }
    console.log(
      `route fuzz: ${routes.length} routes, ${sent} requests, ${spareCount} spare callers, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    if (process.env.FUZZ_STATUSES) console.log([...statuses].map(([k, n]) => `${k} x${n}`).join('\n'));
    if (failures.length) console.log(`route fuzz failures:\n${failures.join('\n')}`);
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(routes.length * RUNS);
  }, 240_000);
});
