import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../server/config.js';

/**
 * docker-compose.yml held to what docs/operations.md and the README say of a deployment (no image
 * can be built or pulled here, so the file itself is read): pinned images, PostgreSQL private and
 * without a default password, PgBouncer's pool sized by the guide's rule, several app instances
 * behind a proxy that the app trusts for the client's address, and Redis between them.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  ports?: string[];
  environment?: Record<string, string>;
  deploy?: { replicas?: number };
  volumes?: string[];
  depends_on?: Record<string, unknown>;
}
const compose = parse(read('docker-compose.yml')) as { services: Record<string, Service> };
const services = compose.services;
const guide = read('docs/operations.md');

/** A value as compose would give it with `env` set: `${X:?…}` needs X, `${X:-d}` falls back to d. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::([?-])([^}]*))?\}/g, (_all, name: string, kind?: string, rest?: string) => {
    if (env[name]) return env[name];
    if (kind === '?') throw new Error(`${name} is required: ${rest}`);
    return kind === '-' ? (rest ?? '') : '';
  });
}

/** The service whose image is `name` (any tag). */
function byImage(name: string): [string, Service] {
  const found = Object.entries(services).find(([, s]) => s.image?.split(':')[0] === name);
  expect(found, `a service running ${name}`).toBeDefined();
  return found!;
}

const [, postgres] = byImage('postgres');
const [pgbouncerName, pgbouncer] = byImage('edoburu/pgbouncer');
const [redisName] = byImage('redis');
const [proxyName, proxy] = byImage('nginx');
const app = Object.values(services).find((s) => s.build);

describe('docker-compose.yml', () => {
  it('pins every image to a version, as the Dockerfile pins Node to what engines admits and CI tests', () => {
    for (const [name, service] of Object.entries(services)) {
      if (service.build) continue;
      const tag = service.image?.split(':')[1] ?? '';
      expect(tag, `${name}: ${service.image}`).toMatch(/^v?\d+\.\d+(\.\d+)?(-[\w.-]+)?$/);
    }
    const nodeImage = /^ARG NODE_IMAGE=node:(\d+)\.(\d+)\.(\d+)-/m.exec(read('Dockerfile'));
    expect(nodeImage, 'the Dockerfile pins node:MAJOR.MINOR.PATCH').not.toBeNull();
    const [major, minor] = [Number(nodeImage![1]), Number(nodeImage![2])];
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    // `^A.B.0 || >=C.D.0`: the image's Node is within one of the ranges.
    const admitted = engines.split('||').some((range) => {
      const m = /^\s*(\^|>=)(\d+)\.(\d+)/.exec(range)!;
      const [lo, loMinor] = [Number(m[2]), Number(m[3])];
      const atLeast = major > lo || (major === lo && minor >= loMinor);
      return m[1] === '^' ? major === lo && atLeast : atLeast;
    });
    expect(admitted, `node ${major}.${minor} within engines ${engines}`).toBe(true);
    expect(Number(process.versions.node.split('.')[0]), 'the tests run on the image major version').toBe(major);
  });

  it('keeps PostgreSQL private and without a default password', () => {
    expect(postgres.ports ?? []).toEqual([]);
    expect(postgres.environment?.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?[^}]+\}$/);
    // Every URL that signs in to PostgreSQL takes the same required password, none a written one.
    const text = read('docker-compose.yml');
    for (const [, password] of text.matchAll(/postgres(?:ql)?:\/\/[^:@/\s]+:([^@\s]+)@/g)) {
      expect(password).toMatch(/^\$\{POSTGRES_PASSWORD:\?[^}]+\}$/);
    }
    // Nor is the event log's insecure node published.
    expect(byImage('eventstore/eventstore')[1].ports ?? []).toEqual([]);
  });

  it("sizes PgBouncer's pool by the guide's rule for the instances it runs", () => {
    const perInstance = /each instance opens up to `DB_POOL_SIZE` \+ (\d+) connections/.exec(guide);
    expect(perInstance, "the guide's per-instance rule").not.toBeNull();
    expect(guide).toMatch(/default_pool_size` bounds what reaches PostgreSQL: keep it at least the sum of the instances'/);
    const env = pgbouncer.environment!;
    const instances = app!.deploy?.replicas ?? 1;
    const poolSize = Number(app!.environment!.DB_POOL_SIZE);
    const needed = instances * (poolSize + Number(perInstance![1]));
    expect(env.POOL_MODE).toBe('transaction');
    expect(Number(env.DEFAULT_POOL_SIZE)).toBeGreaterThanOrEqual(needed);
    expect(Number(env.MAX_CLIENT_CONN)).toBeGreaterThanOrEqual(needed);
    // PostgreSQL's max_connections above the pool.
    const maxConnections = /^max_connections=(\d+)$/.exec(postgres.command?.find((a) => a.startsWith('max_connections=')) ?? '');
    expect(Number(maxConnections?.[1] ?? 100)).toBeGreaterThan(Number(env.DEFAULT_POOL_SIZE));
    // The app goes through PgBouncer, and without prepared statements (PgBouncer here keeps none).
    expect(app!.environment!.DATABASE_URL).toMatch(new RegExp(`@${pgbouncerName}:6432/`));
    expect(app!.environment!.DB_PREPARED_STATEMENTS).toBe('false');
  });

  it('runs several app instances behind the proxy, which the app trusts for the client address, and shares Redis', () => {
    expect(app!.ports ?? [], 'no fixed port: instances can be scaled').toEqual([]);
    expect(app!.deploy?.replicas).toBeGreaterThanOrEqual(2);
    expect(proxy.ports).toHaveLength(1);
    const conf = read(proxy.volumes!.find((v) => v.includes('nginx'))!.split(':')[0]!);
    expect(conf).toMatch(new RegExp(`server app:${app!.environment!.PORT}\\b`));
    expect(conf).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
    expect(conf).toMatch(/location \/metrics \{\s*deny all;/);
    expect(conf).toMatch(/proxy_set_header Upgrade \$http_upgrade;/);
    // One proxy hop: the address it appends is the client's (docs/operations.md, "Scale out").
    expect(app!.environment!.TRUST_PROXY).toBe('1');
    expect(services[proxyName]!.depends_on).toHaveProperty('app');
    expect(app!.environment!.REDIS_URL).toMatch(new RegExp(`^redis://${redisName}:6379(/\\d+)?$`));
  });

  it("gives the app an environment its configuration accepts in production, once the operator's secrets are set", () => {
    const secrets = { POSTGRES_PASSWORD: 'pw', JWT_SECRET: 'j'.repeat(64), DATA_ENCRYPTION_KEY: 'ab'.repeat(32) };
    const env = Object.fromEntries(Object.entries(app!.environment!).map(([k, v]) => [k, interpolate(String(v), secrets)]));
    const config = loadConfig(env);
    expect(config.NODE_ENV).toBe('production');
    expect(config.TRUST_PROXY).toBe(1);
    expect(() => interpolate(String(app!.environment!.JWT_SECRET), {})).toThrow(/JWT_SECRET is required/);
  });
});
