import { sql } from 'kysely';
import type { Config } from '../server/config.js';
import type { Database } from '../server/db/database.js';
import { usersByEmail } from '../server/auth/accounts.js';
import { formatPosition, type EventStore } from '../ledger/event-store/port.js';
import { ASSET_IDS, isAssetId, type AssetId } from '../ledger/assets.js';
import { walletStream } from '../ledger/wallet/events.js';
import { foldJournal } from '../ledger/journal/fold.js';
import { trialBalance, type TrialBalanceLine } from '../ledger/journal/trial-balance.js';
import { balanceAt } from '../ledger/journal/time-travel.js';
import { buildStatement, statementCsv, type StatementLine } from '../ledger/journal/statement.js';
import type { JournalCheck } from '../projections/journal.js';
import { progressBar } from './progress.js';
import { withLedger } from './with-ledger.js';
import { reconcileReadModels } from './ledger-reconcile.js';
import { StaffAdjustments, type StaffAdjustmentLine } from '../ledger/journal/four-eyes-audit.js';
import { PeriodBook } from '../ledger/journal/period.js';
import { valueDate } from '../ledger/journal/value-date.js';
import { pricesAt } from './ledger-prices.js';
import { periodTrialBalance, printPeriodTrialBalance } from './ledger-period.js';

/** The finance commands of `npm run ledger` (trial-balance, balance, statement). */
export const FINANCE_HELP: Record<string, string> = {
  'trial-balance': `Usage: npm run ledger -- trial-balance [--at <time>] [--from <time> --to <time>] [--json]

Runs the event log through the journal's posting rules (up to --at, default now) and
prints per asset: what customers are owed (available + held for pending withdrawals),
pending deposits, staked, fees earned, adjustments, swap conversion, staking rewards,
the net flow with the outside world and deposits in transit. Every asset's accounts
must sum to zero. Without --at it also reconciles with the balances and journal read
tables. Exits 1 when anything does not reconcile.
With --from and --to (instead of --at) it also gives the period's trial balance by value
date (a manual transaction's own date, otherwise when it was recorded): per account and
asset the opening balance, increases, decreases and closing balance (customers' accounts
summed per kind), every asset summing to zero, and per account the same in USD at the
prices of the period's end (the simulated feed's of that moment, or --prices FILE, a JSON
object {"BTC": "97000", ...}, required with PRICE_FEED_URL); and the staff adjustments of
the period (manual transactions, which post to their maker's staff adjustments account, per
maker, checker (the second person who approved them; - when none was needed) and asset: the
net value they put into customers' wallets). A period's closing equals the next period's opening.
<time> is an ISO time (2026-03-01T12:00:00Z; without a zone, UTC) or a date (2026-03-01 = the
end of that day, UTC).`,
  balance: `Usage: npm run ledger -- balance --user <email|id> [--asset X] [--at <time>] [--json]

A customer's balances as they stood at <time> (default now): the wallet's events recorded
up to then, folded by the ledger's own rules. Shows balance, pending deposits, pending
withdrawals and available per asset.`,
  statement: `Usage: npm run ledger -- statement --user <email|id> --from <time> --to <time> [--asset X] [--csv|--json]

Per asset for the period: the opening balance, every booked movement (booking date, value
date, reference, counterparty, amount; its fee as a line of its own) with the running
balance, the closing balance, then what is still pending at --to and the available
balance. Amounts in are positive, out negative. --csv prints the CSV customers download.
A staff account has no statement (exit 2).
A date for --from means the start of that day, for --to the end of it (UTC); a time
without a zone is UTC.`,
};

export const FINANCE_OPTIONS = {
  user: { type: 'string' },
  asset: { type: 'string' },
  at: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  csv: { type: 'boolean' },
  prices: { type: 'string' },
} as const;

export interface FinanceValues {
  json?: boolean;
  user?: string;
  asset?: string;
  at?: string;
  from?: string;
  to?: string;
  csv?: boolean;
  prices?: string;
}

/** A mistake in the command line: printed without a stack, exit code 2. */
export class FinanceUsageError extends Error {
  override name = 'UsageError';
}

/**
 * An ISO time, or a date meaning the start (or end) of that day in UTC. A time without a
 * zone is UTC too. A day the calendar does not have (2026-02-30) is refused: Date.parse
 * would roll it over into the next month.
 */
export function parseMoment(text: string, option: string, endOfDay: boolean): Date {
  const refuse = () => new FinanceUsageError(`--${option} must be an ISO time like 2026-03-01T12:00:00Z or a date like 2026-03-01.`);
  const day = /^(\d{4})-(\d{2})-(\d{2})(T|$)/.exec(text);
  if (!day) throw refuse();
  const [year, month, dayOfMonth] = [Number(day[1]), Number(day[2]), Number(day[3])];
  if (month < 1 || month > 12 || dayOfMonth < 1 || dayOfMonth > new Date(Date.UTC(year, month, 0)).getUTCDate()) {
    throw new FinanceUsageError(`--${option}: ${text.slice(0, 10)} is not a day of the calendar.`);
  }
  let date = text;
  if (day[4] === '') date = `${text}T${endOfDay ? '23:59:59.999' : '00:00:00.000'}Z`;
  else if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(text)) date = `${text}Z`;
  const ms = Date.parse(date);
  if (Number.isNaN(ms)) throw refuse();
  return new Date(ms);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function resolveUser(database: Database, store: EventStore, user: string | undefined): Promise<string> {
  if (!user) throw new FinanceUsageError('--user is required (an e-mail address or a user id).');
  if (UUID.test(user)) {
    const id = user.toLowerCase();
    // An account, or a wallet without one (seeded histories have no account).
    const account = await database.db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst();
    if (!account && (await store.readStream(walletStream(id), { maxCount: 1 })).length === 0)
      throw new FinanceUsageError(`No user and no wallet with the id ${id}.`);
    return id;
  }
  const row = await usersByEmail(database.db, user).select('id').executeTakeFirst();
  if (!row) throw new FinanceUsageError(`No user with the e-mail address ${user}.`);
  return row.id;
}

const who = (given: string, userId: string) => (given.toLowerCase() === userId ? userId : `${given} (${userId})`);

function assetOption(asset: string | undefined): AssetId | undefined {
  if (asset === undefined) return undefined;
  const upper = asset.toUpperCase();
  if (!isAssetId(upper)) throw new FinanceUsageError(`--asset must be one of ${ASSET_IDS.join(', ')}.`);
  return upper;
}

const json = (value: unknown) => JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v), 2);

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** The period of the staff adjustments table (both bounds, or neither). */
function adjustmentsPeriod(values: FinanceValues): { from: Date; to: Date } | null {
  if (!values.from && !values.to) return null;
  if (!values.from || !values.to) throw new FinanceUsageError('--from and --to go together.');
  const period = { from: parseMoment(values.from, 'from', false), to: parseMoment(values.to, 'to', true) };
  if (period.from > period.to) throw new FinanceUsageError('--from must not be after --to.');
  return period;
}

/** Staff adjustments per maker, checker and asset, with their e-mail addresses. */
async function printStaffAdjustments(database: Database, lines: StaffAdjustmentLine[], period: { from: Date; to: Date }): Promise<void> {
  const ids = [...new Set(lines.flatMap((l) => [l.staffId, l.checkerId]).filter((id): id is string => id !== null))];
  const emails = new Map(
    (ids.length ? await database.db.selectFrom('users').select(['id', 'email']).where('id', 'in', ids).execute() : []).map((u) => [
      u.id,
      u.email,
    ]),
  );
  const person = (id: string) => `${emails.get(id) ?? '?'} (${id})`;
  console.log(
    `\nStaff adjustments from ${period.from.toISOString()} to ${period.to.toISOString()} (manual transactions, net put into customers' wallets; the maker entered them, the checker approved them)\n`,
  );
  if (lines.length === 0) console.log('(none)');
  else
    console.log(
      table(
        ['maker', 'checker', 'asset', 'net credited', 'postings'],
        lines.map((l) => [
          l.staffId ? person(l.staffId) : '(maker not recorded)',
          l.checkerId ? person(l.checkerId) : '-',
          l.assetId,
          l.credited,
          String(l.postings),
        ]),
      ),
    );
}

async function trialBalanceCommand(config: Config, values: FinanceValues): Promise<number> {
  const at = values.at ? parseMoment(values.at, 'at', true) : undefined;
  const period = adjustmentsPeriod(values);
  if (at && period) throw new FinanceUsageError('Give --at (the books at one moment) or --from and --to (a period), not both.');
  if (values.prices && !period) throw new FinanceUsageError('--prices values a period: give it with --from and --to.');
  const adjustments = new StaffAdjustments();
  const periodBook = period ? new PeriodBook(period.from, period.to) : null;
  const prices = period ? await pricesAt(period.to, values.prices, config.PRICE_FEED_URL) : null;
  const quiet = Boolean(values.json);
  return withLedger(config, async (database, store) => {
    const head = await store.headPosition();
    const total = Number((await sql<{ n: string }>`select count(*) as n from events`.execute(database.db)).rows[0]!.n);
    const bar = progressBar('posting the log', total, { quiet });
    let last: string | null = null;
    const book = await foldJournal(
      store,
      { until: head, at },
      {
        onProgress: (n) => bar.update(n),
        onEvent: (e, postings) => {
          last = formatPosition(e.position);
          if (!period) return;
          // A period counts by value date (a manual transaction's own date), not by when it was recorded.
          const valued = valueDate(e.type, e.data, e.recordedAt);
          if (postings.length > 0) periodBook!.add(valued, postings);
          // Every event goes by, so that a credit of the period knows the approval given before it.
          adjustments.add(valued >= period.from && valued <= period.to ? postings : [], e);
        },
      },
    );
    bar.finish(book.events);
    const tb = trialBalance(book.entries());
    const position = last ?? (head ? formatPosition(head) : null);
    const readModels = !at && head ? await reconcileReadModels(database, store, tb, head) : [];
    const periodReport = periodBook && prices ? periodTrialBalance(periodBook, prices) : undefined;
    const ok =
      tb.reconciles &&
      !book.firstProblem &&
      readModels.every((c) => c.differences.length === 0) &&
      (periodReport?.imbalances.length ?? 0) === 0;
    if (values.json) {
      const staffAdjustments = period
        ? { from: period.from.toISOString(), to: period.to.toISOString(), lines: adjustments.lines() }
        : undefined;
      console.log(
        json({
          at: at?.toISOString() ?? null,
          position,
          walletEvents: book.events,
          ...tb,
          firstProblem: book.firstProblem,
          readModels,
          staffAdjustments,
          period: periodReport,
          ok,
        }),
      );
      return ok ? 0 : 1;
    }
    console.log(
      `Trial balance ${at ? `at ${at.toISOString()}` : 'now'} (${book.events.toLocaleString('en-US')} wallet events, up to position ${position ?? '(empty log)'})\n`,
    );
    const cols: [string, keyof TrialBalanceLine][] = [
      ['owed to customers', 'customerLiabilities'],
      ['available', 'customerAvailable'],
      ['held (pend. out)', 'pendingWithdrawals'],
      ['pending in', 'pendingDeposits'],
      ['staked', 'staked'],
      ['fees earned', 'feesEarned'],
      ['adjustments', 'adjustments'],
      ['staff adjustments', 'staffAdjustments'],
      ['swap conversion', 'swapConversion'],
      ['staking rewards', 'stakingRewards'],
      ['external net', 'externalNet'],
      ['in transit', 'inTransit'],
      ['sum', 'total'],
    ];
    console.log(
      table(
        ['asset', ...cols.map((c) => c[0]), ''],
        tb.lines.map((l) => [l.assetId, ...cols.map((c) => String(l[c[1]])), l.reconciles ? 'ok' : 'FAIL']),
      ),
    );
    console.log(
      '\nPer asset: owed to customers + staked + fees + adjustments + staff adjustments + swap conversion + staking rewards + external net = 0, and pending in + in transit = 0.',
    );
    if (book.firstProblem)
      console.log(
        `FAIL first event that breaks the books: ${book.firstProblem.eventId} (${book.firstProblem.type} at ${book.firstProblem.position}): ${book.firstProblem.problem}`,
      );
    for (const c of readModels) {
      if (!c.checked) console.log(`skip ${c.table}: the read table is not at the log's head (the app is writing); run again or use verify`);
      else console.log(`${c.differences.length ? 'FAIL' : 'ok  '} ${c.table} read table agrees with the journal`);
      for (const d of c.differences) console.log(`     ${d}`);
    }
    if (period) await printStaffAdjustments(database, adjustments.lines(), period);
    if (periodReport) printPeriodTrialBalance(periodReport);
    console.log(ok ? 'trial balance: the books balance.' : 'trial balance: FAILED');
    return ok ? 0 : 1;
  });
}

/**
 * `--at` of a balance: a moment that has happened. A date alone that is today means now; a
 * later moment is refused, since the ledger cannot know balances yet to come.
 */
export function pastMoment(text: string | undefined): Date {
  const now = new Date();
  if (text === undefined) return now;
  const at = parseMoment(text, 'at', true);
  if (at <= now) return at;
  if (/^\d{4}-\d{2}-\d{2}$/.test(text) && text === now.toISOString().slice(0, 10)) return now;
  throw new FinanceUsageError(`--at ${text} is in the future; give a moment up to now.`);
}

async function balanceCommand(config: Config, values: FinanceValues): Promise<number> {
  if (values.from !== undefined || values.to !== undefined)
    throw new FinanceUsageError('balance takes --at (one moment), not --from or --to; for a period use statement.');
  const at = pastMoment(values.at);
  const asset = assetOption(values.asset);
  return withLedger(config, async (database, store) => {
    const userId = await resolveUser(database, store, values.user);
    const result = await balanceAt(store, userId, { at }, asset);
    if (values.json) console.log(json(result));
    else {
      console.log(
        `Balances of ${who(values.user!, userId)} at ${result.at}${result.lastEvent ? `, after event ${result.lastEvent.eventId} (${result.lastEvent.type})` : ': no events yet'}\n`,
      );
      console.log(
        table(
          ['asset', 'balance', 'pending deposits', 'pending withdrawals', 'available'],
          result.assets.map((a) => [a.assetId, a.balance, a.pendingDeposits, a.pendingWithdrawals, a.available]),
        ),
      );
    }
    return 0;
  });
}

async function statementCommand(config: Config, values: FinanceValues): Promise<number> {
  if (!values.from || !values.to) throw new FinanceUsageError('--from and --to are required.');
  if (values.csv && values.json) throw new FinanceUsageError('Give --csv or --json, not both.');
  const from = parseMoment(values.from, 'from', false);
  const to = parseMoment(values.to, 'to', true);
  if (from > to) throw new FinanceUsageError('--from must not be after --to.');
  const asset = assetOption(values.asset);
  return withLedger(config, async (database, store) => {
    const userId = await resolveUser(database, store, values.user);
    // A statement is a customer's: staff accounts hold no wallet of their own.
    const account = await database.db.selectFrom('users').select('role').where('id', '=', userId).executeTakeFirst();
    if (account && account.role !== 'USER')
      throw new FinanceUsageError(`${values.user} is a staff account (${account.role}); a statement is for a customer.`);
    const statement = buildStatement(userId, await store.readStream(walletStream(userId)), from, to);
    if (asset) {
      statement.assets = statement.assets.filter((a) => a.assetId === asset);
      statement.lines = statement.lines.filter((l) => l.assetId === asset);
      statement.pending = statement.pending.filter((l) => l.assetId === asset);
    }
    if (values.csv) process.stdout.write(statementCsv(statement));
    else if (values.json) console.log(json(statement));
    else {
      console.log(`Statement of ${who(values.user!, userId)} from ${statement.from} to ${statement.to}\n`);
      const headers = ['booking date', 'value date', 'type', 'description', 'reference', 'counterparty', 'amount', 'balance'];
      const cells = (l: StatementLine) => [
        l.bookingDate,
        l.valueDate,
        l.type,
        l.description,
        l.reference,
        l.counterparty,
        l.amount,
        l.balance,
      ];
      for (const a of statement.assets) {
        console.log(`${a.assetId}: opening balance ${a.opening}`);
        const lines = statement.lines.filter((l) => l.assetId === a.assetId);
        if (lines.length) console.log(table(headers, lines.map(cells)));
        console.log(`${a.assetId}: closing balance ${a.closing} (in ${a.credits}, out ${a.debits}, fees ${a.fees})`);
        const pending = statement.pending.filter((l) => l.assetId === a.assetId);
        if (pending.length) console.log(`pending at ${statement.to}:\n${table(headers, pending.map(cells))}`);
        console.log(`${a.assetId}: available balance ${a.available}\n`);
      }
      if (statement.assets.length === 0) console.log('No balance and no movements in this period.');
    }
    return 0;
  });
}

/** Runs a finance command; null when `command` is not one of them. */
export function runFinanceCommand(command: string, config: Config, values: FinanceValues): Promise<number> | null {
  switch (command) {
    case 'trial-balance':
      return trialBalanceCommand(config, values);
    case 'balance':
      return balanceCommand(config, values);
    case 'statement':
      return statementCommand(config, values);
    default:
      return null;
  }
}

/** The journal lines of `ledger verify`'s report. */
export function printJournalCheck(check: JournalCheck | undefined): void {
  if (!check) return;
  console.log(
    `${check.firstUnbalanced ? 'FAIL' : 'ok  '} journal: every event's postings sum to zero per asset (${check.events.toLocaleString('en-US')} wallet events)`,
  );
  if (check.firstUnbalanced)
    console.log(
      `     first event that breaks it: ${check.firstUnbalanced.eventId} (${check.firstUnbalanced.type} at ${check.firstUnbalanced.position}): ${check.firstUnbalanced.problem}`,
    );
  console.log(`${check.firstUnbalancedInTable ? 'FAIL' : 'ok  '} journal table: every event's rows sum to zero per asset`);
  if (check.firstUnbalancedInTable) {
    const b = check.firstUnbalancedInTable;
    console.log(`     first event that breaks it: ${b.eventId} at ${b.position}: ${b.assetId} rows sum to ${b.sum}`);
  }
  console.log(`${check.customerMismatches.length ? 'FAIL' : 'ok  '} journal customer accounts equal the wallet balances`);
  for (const m of check.customerMismatches) console.log(`     ${m.key}: journal ${m.journal}, wallet ${m.wallet}`);
  const f = check.fourEyes;
  console.log(
    `${f.problems.length ? 'FAIL' : 'ok  '} four eyes: every staff credit, debit and settlement above the single or daily limit has an eligible second approval (${f.checked} checked, ${f.approved} approved by a second person, ${f.unvalued} written before the rule)`,
  );
  if (f.problems[0]) console.log(`     first event that breaks it: ${f.problems[0].eventId} (${f.problems[0].type})`);
  for (const p of f.problems) console.log(`     ${p.eventId} (${p.type}, transaction ${p.transactionId}): ${p.problem}`);
}
