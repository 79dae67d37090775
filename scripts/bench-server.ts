/**
 * The server side of `npm run bench`'s HTTP phase, run as a child process of the bench:
 * the whole app (`buildApp`, as `npm start` serves it) plus three baseline routes on the
 * same Fastify instance and the same database pool:
 *
 *   GET  /bench/static        answers a constant
 *   GET  /bench/select?id=    one SELECT by primary key (users)
 *   POST /bench/insert        BEGIN; INSERT one row; COMMIT
 *
 * It talks to the bench over IPC: `{type: 'setup', users}` creates confirmed customers with
 * a card and a few transactions and answers their ids and access tokens; `{type: 'rss'}`
 * answers this process's memory. Environment: the app's (DATABASE_URL, PORT, ...).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { loadConfig } from '../server/config.js';
import { buildApp } from '../server/app.js';
import { configureHeap } from '../server/heap.js';
import { walletDecider } from '../ledger/wallet/decider.js';
import { recorded } from '../ledger/wallet/wallet.arbitraries.js';

export interface BenchUser {
  id: string;
  token: string;
  cardId: string;
}

export type ServerMessage =
  | { type: 'ready'; port: number }
  | { type: 'setup-done'; users: BenchUser[] }
  | { type: 'rss'; rssMB: number; peakRssMB: number; heapUsedMB: number; heapTotalMB: number; externalMB: number }
  | { type: 'error'; message: string };

const send = (m: ServerMessage) => process.send?.(m);

async function start(): Promise<void> {
  const config = loadConfig();
  configureHeap(config.HEAP_GROWING_PERCENT);
  const app = await buildApp(config);
  const db = app.ledger.database.db;
  await sql`create table if not exists bench_insert (like events including all)`.execute(db);

  app.get('/bench/static', async () => ({ ok: true }));
  app.get('/bench/select', async (request) => {
    const id = (request.query as { id?: string }).id ?? '';
    const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return { user: row ?? null };
  });
  app.post('/bench/insert', async () => {
    const id = randomUUID();
    await db.transaction().execute(async (trx) => {
      await sql`insert into bench_insert (event_id, stream_id, stream_revision, event_type, event_version, data, metadata)
        values (${id}::uuid, ${`bench-${id}`}, 0, 'bench.inserted', 1, ${JSON.stringify({ id })}::jsonb, ${JSON.stringify({ actorId: 'bench' })}::jsonb)`.execute(
        trx,
      );
    });
    return { id };
  });

  async function setup(count: number): Promise<BenchUser[]> {
    const { accounts, sessions } = app.authServices;
    const users: BenchUser[] = [];
    for (let i = 0; i < count; i++) {
      const email = `bench-${i}-${randomUUID().slice(0, 8)}@bench.wallet-ledger.local`;
      const id = await accounts.createAccount({
        email,
        password: 'bench-password-1',
        fullName: `Bench User ${i}`,
        role: 'USER',
        source: 'operator',
        requiresPasswordChange: false,
        emailConfirmed: true,
        actor: { id: 'bench', role: 'SYSTEM' },
      });
      const sessionId = await sessions.create(id, { aal: 'aal1', ipAddress: '127.0.0.1', userAgent: 'bench' });
      const { access_token: token } = await sessions.issue(sessionId, id, 'USER');
      const card = await app.inject({
        method: 'POST',
        url: '/functions/v1/add-raw-payment-method',
        headers: { authorization: `Bearer ${token}` },
        payload: { type: 'credit_card', cardNumber: '4242 4242 4242 4242', cardHolderName: 'Bench User', expiryDate: '12/39', cvv: '123' },
      });
      if (card.statusCode !== 200) throw new Error(`add card: ${card.statusCode} ${card.body}`);
      // A short history, so that the transactions page and the balances have rows to show.
      for (let k = 0; k < 12; k++) {
        await app.ledger.execute(walletDecider, id, recorded(`${k + 1}.5`, 'Complete', k % 2 ? 'ETH' : 'BTC'), {
          actor: { id: 'bench', role: 'SYSTEM' },
        });
      }
      users.push({ id, token, cardId: card.json().paymentMethod.id });
    }
    return users;
  }

  process.on('message', (m: { type: string; users?: number }) => {
    if (m.type === 'setup') {
      setup(m.users ?? 64).then(
        (users) => send({ type: 'setup-done', users }),
        (err) => send({ type: 'error', message: String((err as Error).stack ?? err) }),
      );
    } else if (m.type === 'rss') {
      const m = process.memoryUsage();
      send({
        type: 'rss',
        rssMB: m.rss / 2 ** 20,
        peakRssMB: process.resourceUsage().maxRSS / 1024,
        heapUsedMB: m.heapUsed / 2 ** 20,
        heapTotalMB: m.heapTotal / 2 ** 20,
        externalMB: m.external / 2 ** 20,
      });
    } else if (m.type === 'stop') {
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    }
  });
  process.on('disconnect', () => process.exit(0));
  await app.listen({ host: '127.0.0.1', port: config.PORT });
  const address = app.server.address();
  send({ type: 'ready', port: typeof address === 'object' && address ? address.port : config.PORT });
}

start().catch((err) => {
  send({ type: 'error', message: String((err as Error).stack ?? err) });
  process.exit(1);
});
