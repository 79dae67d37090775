import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { Config } from '../server/config.js';
import type { Database } from '../server/db/database.js';
import { toNewEvents, type Actor } from '../ledger/command-handler.js';
import { formatPosition, type EventStore } from '../ledger/event-store/port.js';
import { ASSET_IDS, isAssetId, type AssetId } from '../ledger/assets.js';
import { csvText } from '../ledger/csv.js';
import { formatAmount, money, ZERO } from '../ledger/money.js';
import { foldJournal } from '../ledger/journal/fold.js';
import { PeriodBook } from '../ledger/journal/period.js';
import { valueDate } from '../ledger/journal/value-date.js';
import {
  booksDecider,
  decideBooks,
  LIABILITIES_STREAM,
  PERIODS_STREAM,
  periodBounds,
  RESERVES_STREAM,
  type BooksCommand,
  type BooksEvent,
} from '../ledger/books/periods.js';
import { liabilitiesFrom, type Liabilities } from '../ledger/books/liabilities.js';
import { verifyProof } from '../ledger/books/merkle.js';
import { FinanceUsageError, parseMoment, pastMoment } from './ledger-finance.js';
import { progressBar } from './progress.js';
import { withLedger } from './with-ledger.js';

/** The books' operator commands: close, journal, liabilities, reserves, verify-proof (docs/finance.md). */
export const BOOKS_HELP: Record<string, string> = {
  close: `Usage: npm run ledger -- close --period YYYY-MM [--json]

Closes a month of the books (UTC): afterwards a manual transaction dated on or before the
month's last moment is refused, so a correction is an adjusting entry in the open period.
Closing a month closes every month before it. A month closes after its last day; one
already closed is refused. Recorded as the event books.period-closed.`,
  journal: `Usage: npm run ledger -- journal --from <time> --to <time> --csv|--json

Exports the journal's postings whose value date lies in the period, for a general ledger:
position, event id, booking date, value date, event type, transaction id, account, asset
and amount (positive: into the account). Every event's postings sum to zero per asset, so
the export does too.`,
  liabilities: `Usage: npm run ledger -- liabilities [--at <time>] [--csv|--json] [--publish]

Every customer's liabilities per asset at <time> (by value date; default now) in one pass
over the log: available + held for pending withdrawals + staked, and the totals per asset,
with the Merkle root over (customer hash, balances). --publish keeps the root and the
leaves, so each customer can download their proof of inclusion in Settings, and records
the event books.liabilities-published. Check a proof with verify-proof.`,
  reserves: `Usage: npm run ledger -- reserves [import FILE.csv] [--json]

import FILE.csv  records the custody holdings per asset (a CSV with the header asset,amount
                 and one row per asset; an asset not listed holds 0) as the event
                 books.reserves-imported; a bad file is refused and nothing is recorded.
Then, or without import, prints the last imported reserves against the customers'
liabilities now, per asset, with the difference (reserves - liabilities).`,
  'verify-proof': `Usage: npm run ledger -- verify-proof FILE [--root <hex>] [--json]

Checks a proof of inclusion downloaded in Settings: recomputes the leaf from the customer
hash and balances, follows the path to the root and compares it with the proof's root (and
with --root, the root the operator published). Exit 0 when it verifies, 1 when it does not.
The algorithm is in docs/finance.md; it needs nothing of this ledger but the file.`,
};

export const BOOKS_OPTIONS = {
  period: { type: 'string' },
  publish: { type: 'boolean' },
  root: { type: 'string' },
} as const;

export interface BooksValues {
  json?: boolean;
  csv?: boolean;
  from?: string;
  to?: string;
  at?: string;
  period?: string;
  publish?: boolean;
  root?: string;
}

const json = (value: unknown) => JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v), 2);

/** The operator who ran the command, as the events name them. */
const operator = (): Actor => ({ id: `operator:${os.userInfo().username}`, role: 'OPERATOR' });

async function appendBooks(store: EventStore, stream: string, command: BooksCommand): Promise<BooksEvent[]> {
  const existing = await store.readStream(stream);
  let state = booksDecider.initialState();
  for (const e of existing) state = booksDecider.evolve(state, { type: e.type, data: e.data } as BooksEvent);
  const events = decideBooks(command, state);
  const last = existing[existing.length - 1];
  await store.append(stream, toNewEvents(booksDecider, stream, events, { actor: operator() }), {
    expectedRevision: last ? last.revision : 'no_stream',
  });
  return events;
}

function csvOrJson(values: BooksValues, required: boolean): 'csv' | 'json' | 'text' {
  if (values.csv && values.json) throw new FinanceUsageError('Give --csv or --json, not both.');
  if (values.csv) return 'csv';
  if (values.json) return 'json';
  if (required) throw new FinanceUsageError('Give --csv or --json.');
  return 'text';
}

async function closeCommand(config: Config, values: BooksValues): Promise<number> {
  if (!values.period) throw new FinanceUsageError('--period YYYY-MM is required.');
  periodBounds(values.period);
  return withLedger(config, async (_database, store) => {
    const head = await store.headPosition();
    const [event] = await appendBooks(store, PERIODS_STREAM, {
      type: 'ClosePeriod',
      period: values.period!,
      now: new Date().toISOString(),
      position: head ? formatPosition(head) : null,
    });
    const data = event!.data as { period: string; closedThrough: string };
    if (values.json) console.log(json(data));
    else console.log(`Closed ${data.period}: entries dated up to ${data.closedThrough} are refused from now on.`);
    return 0;
  });
}

function periodOf(values: BooksValues): { from: Date; to: Date } {
  if (!values.from || !values.to) throw new FinanceUsageError('--from and --to are required.');
  const from = parseMoment(values.from, 'from', false);
  const to = parseMoment(values.to, 'to', true);
  if (from > to) throw new FinanceUsageError('--from must not be after --to.');
  return { from, to };
}

export const JOURNAL_COLUMNS = [
  'position',
  'event_id',
  'booking_date',
  'value_date',
  'event_type',
  'transaction_id',
  'account',
  'asset',
  'amount',
] as const;

async function journalCommand(config: Config, values: BooksValues): Promise<number> {
  const { from, to } = periodOf(values);
  const format = csvOrJson(values, true);
  return withLedger(config, async (_database, store) => {
    const rows: string[][] = [];
    const sums = new Map<AssetId, { sum: ReturnType<typeof money>; postings: number }>();
    if (format === 'csv') process.stdout.write(csvText([[...JOURNAL_COLUMNS]]));
    await foldJournal(
      store,
      {},
      {
        onEvent: (e, postings) => {
          if (postings.length === 0) return;
          const valued = valueDate(e.type, e.data, e.recordedAt);
          if (valued < from || valued > to) return;
          const tx = (e.data as { transactionId?: string }).transactionId ?? '';
          for (const p of postings) {
            rows.push([
              formatPosition(e.position),
              e.eventId,
              e.recordedAt.toISOString(),
              valued.toISOString(),
              e.type,
              tx,
              p.account,
              p.assetId,
              p.amount,
            ]);
            const s = sums.get(p.assetId) ?? { sum: ZERO, postings: 0 };
            sums.set(p.assetId, { sum: s.sum.plus(p.amount), postings: s.postings + 1 });
          }
        },
        onProgress: () => {
          // Written page by page: an export of a long log never holds it all.
          if (format === 'csv' && rows.length) process.stdout.write(csvText(rows.splice(0)));
        },
      },
    );
    const totals = ASSET_IDS.filter((a) => sums.has(a)).map((a) => ({
      assetId: a,
      postings: sums.get(a)!.postings,
      sum: formatAmount(sums.get(a)!.sum),
    }));
    if (format === 'csv') {
      if (rows.length) process.stdout.write(csvText(rows));
      return totals.every((t) => t.sum === '0') ? 0 : 1;
    }
    const postings = rows.map((r) => Object.fromEntries(JOURNAL_COLUMNS.map((c, i) => [c, r[i]])));
    console.log(json({ from: from.toISOString(), to: to.toISOString(), postings, totals }));
    return totals.every((t) => t.sum === '0') ? 0 : 1;
  });
}

/** Every customer's liabilities at `at`, by value date, in one pass over the log. */
export async function liabilitiesAt(store: EventStore, at: Date, quiet: boolean): Promise<Liabilities> {
  const book = new PeriodBook(null, at);
  const bar = progressBar('posting the log', null, { quiet });
  let n = 0;
  await foldJournal(
    store,
    {},
    {
      onEvent: (e, postings) => {
        if (postings.length) book.add(valueDate(e.type, e.data, e.recordedAt), postings);
      },
      onProgress: (read) => bar.update((n = read)),
    },
  );
  bar.finish(n);
  return liabilitiesFrom(book.closings(), at);
}

/** Keeps the root and the leaves of published liabilities, for the customers' proofs (migration 0032). */
export async function storeLiabilities(database: Database, l: Liabilities): Promise<void> {
  await database.db.transaction().execute(async (trx) => {
    await sql`delete from liabilities_snapshots where root = ${l.root}`.execute(trx);
    await sql`insert into liabilities_snapshots (root, taken_at, published_at, customers, totals)
      values (${l.root}, ${l.at}, ${new Date().toISOString()}, ${l.customers.length}, ${JSON.stringify(l.totals)}::jsonb)`.execute(trx);
    for (let i = 0; i < l.customers.length; i += 500) {
      const chunk = l.customers.slice(i, i + 500);
      await sql`insert into liabilities_leaves (root, leaf_index, user_id, customer_hash, balances, leaf) values ${sql.join(
        chunk.map((c, j) => sql`(${l.root}, ${i + j}, ${c.userId}, ${c.customerHash}, ${JSON.stringify(c.balances)}::jsonb, ${c.leaf})`),
      )}`.execute(trx);
    }
  });
}

async function liabilitiesCommand(config: Config, values: BooksValues): Promise<number> {
  const at = pastMoment(values.at);
  const format = csvOrJson(values, false);
  return withLedger(config, async (database, store) => {
    const l = await liabilitiesAt(store, at, format !== 'text');
    if (values.publish) {
      await storeLiabilities(database, l);
      await appendBooks(store, LIABILITIES_STREAM, {
        type: 'PublishLiabilities',
        at: l.at,
        root: l.root,
        customers: l.customers.length,
        totals: l.totals as Record<string, string>,
      });
    }
    if (format === 'json') console.log(json({ ...l, published: Boolean(values.publish) }));
    else if (format === 'csv') {
      const rows = [['user_id', 'customer_hash', 'asset', 'amount']];
      for (const c of l.customers) for (const [a, v] of Object.entries(c.balances)) rows.push([c.userId, c.customerHash, a, v!]);
      for (const [a, v] of Object.entries(l.totals)) rows.push(['total', '', a, v!]);
      process.stdout.write(csvText(rows));
    } else {
      console.log(`Liabilities to customers at ${l.at}: ${l.customers.length.toLocaleString('en-US')} customers\n`);
      for (const c of l.customers)
        console.log(
          `${c.userId}  ${Object.entries(c.balances)
            .map(([a, v]) => `${a} ${v}`)
            .join(', ')}`,
        );
      console.log(
        `\ntotals: ${
          Object.entries(l.totals)
            .map(([a, v]) => `${a} ${v}`)
            .join(', ') || '(none)'
        }`,
      );
      console.log(`Merkle root: ${l.root}${values.publish ? ' (published: customers can download their proofs in Settings)' : ''}`);
    }
    return 0;
  });
}

/** Reads a holdings CSV (`asset,amount`); refuses anything else with the line it found wrong. */
export function parseHoldings(text: string, file: string): Record<string, string> {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines[0]?.trim().toLowerCase().replace(/\s/g, '') !== 'asset,amount')
    throw new FinanceUsageError(`${file}: the first line must be the header asset,amount.`);
  const holdings: Record<string, string> = {};
  for (const [i, line] of lines.slice(1).entries()) {
    const [asset = '', amount = '', ...rest] = line.split(',').map((c) => c.trim());
    const where = `${file} line ${i + 2}`;
    if (rest.length) throw new FinanceUsageError(`${where}: two cells expected (asset,amount).`);
    const id = asset.toUpperCase();
    if (!isAssetId(id)) throw new FinanceUsageError(`${where}: ${asset || '(empty)'} is not one of ${ASSET_IDS.join(', ')}.`);
    if (!/^\d+(\.\d{1,18})?$/.test(amount)) throw new FinanceUsageError(`${where}: the amount must be a decimal of at least 0.`);
    if (holdings[id] !== undefined) throw new FinanceUsageError(`${where}: ${id} is listed twice.`);
    holdings[id] = formatAmount(money(amount));
  }
  return holdings;
}

async function reservesCommand(config: Config, values: BooksValues, args: string[]): Promise<number> {
  const [sub, file] = args;
  if (sub !== undefined && sub !== 'import')
    throw new FinanceUsageError(`Unknown reserves command "${sub}": use reserves import FILE.csv.`);
  if (sub === 'import' && !file) throw new FinanceUsageError('reserves import needs a CSV file: reserves import FILE.csv.');
  let imported: { holdings: Record<string, string>; file: string; sha256: string } | null = null;
  if (file) {
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file);
    } catch (err) {
      throw new FinanceUsageError(`${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`);
    }
    imported = {
      holdings: parseHoldings(bytes.toString('utf8'), file),
      file: path.basename(file),
      sha256: createHash('sha256').update(bytes).digest('hex'),
    };
  }
  return withLedger(config, async (_database, store) => {
    if (imported) await appendBooks(store, RESERVES_STREAM, { type: 'ImportReserves', ...imported });
    const last = (await store.readStream(RESERVES_STREAM)).at(-1);
    if (!last) throw new FinanceUsageError('No reserves imported yet: reserves import FILE.csv.');
    const reserves = (last.data as { holdings: Record<string, string> }).holdings;
    const l = await liabilitiesAt(store, new Date(), Boolean(values.json));
    const lines = ASSET_IDS.filter((a) => reserves[a] !== undefined || l.totals[a] !== undefined).map((a) => {
      const r = money(reserves[a] ?? '0');
      const owed = money(l.totals[a] ?? '0');
      return { assetId: a, reserves: formatAmount(r), liabilities: formatAmount(owed), difference: formatAmount(r.minus(owed)) };
    });
    const short = lines.filter((x) => money(x.difference).isNegative()).map((x) => x.assetId);
    const out = { importedAt: last.recordedAt.toISOString(), file: (last.data as { file: string }).file, at: l.at, lines, short };
    if (values.json) console.log(json(out));
    else {
      console.log(`Reserves imported ${out.importedAt} (${out.file}) against liabilities at ${l.at}\n`);
      const w = [6, 28, 28, 28];
      const row = (c: string[]) => c.map((x, i) => (i === 0 ? x.padEnd(w[i]!) : x.padStart(w[i]!))).join('  ');
      console.log(row(['asset', 'reserves', 'liabilities', 'difference']));
      for (const x of lines) console.log(row([x.assetId, x.reserves, x.liabilities, x.difference]));
      console.log(short.length ? `\nSHORT: reserves below liabilities for ${short.join(', ')}` : '\nEvery asset is covered.');
    }
    return short.length ? 1 : 0;
  });
}

function verifyProofCommand(values: BooksValues, args: string[]): number {
  const [file] = args;
  if (!file) throw new FinanceUsageError('verify-proof needs the proof file: verify-proof FILE.');
  if (values.root !== undefined && !/^[0-9a-fA-F]{64}$/.test(values.root)) throw new FinanceUsageError('--root must be 64 hex characters.');
  let proof: unknown;
  try {
    proof = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new FinanceUsageError(`${file}: not a readable JSON file (${(err as Error).message}).`);
  }
  const r = verifyProof(proof, values.root);
  const p = proof as { root?: string; at?: string; balances?: Record<string, string> };
  if (values.json) console.log(json({ ...r, root: p.root, at: p.at }));
  else if (r.ok)
    console.log(
      `ok: the balances ${Object.entries(p.balances ?? {})
        .map(([a, v]) => `${a} ${v}`)
        .join(', ')} are included in the liabilities of ${p.at}, root ${p.root}.`,
    );
  else console.log(`FAIL: ${r.problem}.`);
  return r.ok ? 0 : 1;
}

/** Runs a books command; null when `command` is not one of them. */
export function runBooksCommand(command: string, config: Config, values: BooksValues, args: string[]): Promise<number> | null {
  switch (command) {
    case 'close':
      return closeCommand(config, values);
    case 'journal':
      return journalCommand(config, values);
    case 'liabilities':
      return liabilitiesCommand(config, values);
    case 'reserves':
      return reservesCommand(config, values, args);
    case 'verify-proof':
      return Promise.resolve().then(() => verifyProofCommand(values, args));
    default:
      return null;
  }
}

/** How many positional arguments each books command takes. */
export const BOOKS_ARGUMENTS: Record<string, number> = { reserves: 2, 'verify-proof': 1 };
