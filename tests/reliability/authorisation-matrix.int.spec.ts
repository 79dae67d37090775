import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { buildWorld, ROLES, type Ids, type Role, type World } from './world.js';
import { EXPECTED, ROUTE_POLICY, type Outcome, type RoutePolicy } from './route-policy.js';

const routeKey = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

function meets(outcome: Outcome, status: number, wrote: boolean): boolean {
  if (status >= 500) return false;
  switch (outcome) {
    case 'ok':
      return status >= 200 && status < 400;
    case 'allowed':
      return status !== 401 && status !== 403;
    case '401':
      return status === 401;
    case '403':
      return status === 403 && !wrote;
    case 'denied':
      return [400, 403, 404].includes(status) && !wrote;
    case '-':
      return true;
  }
}

/** The id keys a request builder reads (a route without any has no foreign target). */
function idKeysRead(entry: RoutePolicy, sample: Ids): (keyof Ids)[] {
  if (!entry.request) return [];
  const read = new Set<keyof Ids>();
  const proxy = new Proxy(sample, { get: (target, key) => (read.add(key as keyof Ids), target[key as keyof Ids]) });
  entry.request(proxy, { password: 'x' });
  return [...read].filter((k) => k !== 'selfId');
}

describe('authorisation matrix: every route x every role x own/foreign target', () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await createTestApp();
    w = await buildWorld(t, 'matrix');
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  const routes = () => t.app.routeInventory;

  it('has a policy for every route the app serves, and none for a route that is gone', () => {
    const served = new Set(routes().map(routeKey));
    const missing = [...served].filter((k) => !ROUTE_POLICY[k]);
    const stale = Object.keys(ROUTE_POLICY).filter((k) => !served.has(k));
    expect(missing, 'routes without an entry in tests/reliability/route-policy.ts').toEqual([]);
    expect(stale, 'entries in route-policy.ts for routes the app no longer serves').toEqual([]);
  });

  it('answers every cell as the policy table says, and a refused call writes nothing', async () => {
    const idsFor = (role: Role, target: 'own' | 'foreign', selfId: string): Ids => {
      const customer =
        role === 'USER' || role === 'anonymous' ? (target === 'own' ? w.self : w.other) : target === 'own' ? w.owned : w.other;
      return {
        ...customer,
        workerId: target === 'own' ? w.worker : w.otherWorker,
        managerId: target === 'own' ? w.manager : w.admin,
        spareWorkerId: target === 'own' ? w.spareWorker : w.otherWorker,
        selfId,
      };
    };
    const failures: string[] = [];
    let cells = 0;
    const call = async (key: string, entry: RoutePolicy, role: Role, ids: Ids, expected: Outcome, label: string) => {
      const [method, url] = [key.slice(0, key.indexOf(' ')), key.slice(key.indexOf(' ') + 1)];
      let headers: Record<string, string>;
      try {
        headers = await w.headers(role, { fresh: entry.fresh });
      } catch (err) {
        failures.push(`${key} as ${role} (${label}): could not sign in: ${(err as Error).message}`);
        return;
      }
      const password = role === 'anonymous' ? 'not-signed-in' : w.passwords[role];
      const spec = entry.request?.(ids, { password }) ?? {};
      if (!spec.url && url.includes(':')) throw new Error(`${key} needs a request with a url in route-policy.ts`);
      const before = await w.eventCount();
      const res = await t.app.inject({
        method: method as InjectOptions['method'],
        url: spec.url ?? url,
        query: spec.query,
        headers: { ...headers, ...spec.headers },
        ...(spec.body !== undefined ? { payload: spec.body as InjectOptions['payload'] } : {}),
      });
      const wrote = (await w.eventCount()) !== before;
      cells++;
      if (!meets(expected, res.statusCode, wrote)) {
        failures.push(
          `${key} as ${role} (${label}): expected ${expected}, got ${res.statusCode}${wrote ? ' and an event was written' : ''} ${res.body.slice(0, 160)}`,
        );
      }
    };

    for (const route of routes()) {
      const key = routeKey(route);
      const entry = ROUTE_POLICY[key];
      if (!entry || entry.coveredBy) continue;
      const sample = idsFor('USER', 'own', w.self.userId);
      const idKeys = idKeysRead(entry, sample);
      for (const role of ROLES) {
        const selfId = role === 'anonymous' ? w.self.userId : (await w.session(role))!.user.id;
        for (const [i, target] of (['own', 'foreign'] as const).entries()) {
          const expected: Outcome = entry.expect?.[`${role}/${target}`] ?? EXPECTED[entry.policy][role][i]!;
          if (expected === '-' || (target === 'foreign' && idKeys.length === 0)) continue;
          await call(key, entry, role, idsFor(role, target, selfId), expected, target);
          // A customer's (or a worker's) foreign id swapped into one field at a time.
          if (target === 'foreign' && (role === 'USER' || role === 'WORKER') && idKeys.length > 1) {
            const own = idsFor(role, 'own', selfId);
            const other = idsFor(role, 'foreign', selfId);
            // With only one field foreign, 'not found' is as good a refusal as 'forbidden'.
            for (const k of idKeys)
              await call(key, entry, role, { ...own, [k]: other[k] }, expected === '403' ? 'denied' : expected, `foreign ${k} only`);
          }
        }
      }
    }
    console.log(`authorisation matrix: ${routes().length} routes, ${cells} cells checked`);
    expect(failures).toEqual([]);
    expect(cells).toBeGreaterThan(routes().length * 3);
  }, 120_000);
});
