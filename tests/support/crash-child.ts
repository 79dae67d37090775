/**
 * A ledger process for the crash test: projects, and appends wallet commands in a loop,
 * printing `ack <transactionId>` for each command that returned. The parent kills it
 * with SIGKILL at random moments.
 */
import { randomUUID } from 'node:crypto';
import { openDatabase } from '../../server/db/database.js';
import { migrateToLatest } from '../../migrations/index.js';
import { PostgresEventStore } from '../../ledger/event-store/postgres.js';
import { CommandHandler, SYSTEM_ACTOR } from '../../ledger/command-handler.js';
import { walletDecider } from '../../ledger/wallet/decider.js';
import { Projector } from '../../projections/registry.js';
import { money } from '../../ledger/money.js';

const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR });
await migrateToLatest(database.db);
const store = new PostgresEventStore(database.db);
const projector = new Projector(database.projectionDb, store, undefined, { batchSize: 20 });
await projector.start();
const handler = new CommandHandler(store);
const users = (process.env.CRASH_USERS ?? '').split(',');
process.stdout.write('ready\n');
let i = 0;
for (;;) {
  const user = users[i++ % users.length]!;
  const transactionId = randomUUID();
  const sentAt = new Date().toISOString();
  const command =
    i % 3 === 0
      ? {
          type: 'RequestWithdrawal' as const,
          transactionId,
          assetId: 'BTC' as const,
          amount: money('0.01'),
          paymentMethodId: randomUUID(),
          sentAt,
        }
      : {
          type: 'RecordTransaction' as const,
          transactionId,
          assetId: 'BTC' as const,
          amount: money('0.5'),
          status: 'Complete' as const,
          txType: 'deposit' as const,
          note: null,
          senderAddress: 'crash-test',
          txid: null,
          isHidden: false,
          reason: null,
          sentAt,
        };
  try {
    await handler.handle(walletDecider, user, command, { actor: SYSTEM_ACTOR });
    process.stdout.write(`ack ${transactionId}\n`);
  } catch (err) {
    process.stdout.write(`refused ${transactionId} ${(err as Error).message}\n`);
  }
}
