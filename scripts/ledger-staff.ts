import type { Config } from '../server/config.js';
import { openDatabase } from '../server/db/database.js';
import { migrateToLatest } from '../migrations/index.js';
import { isUuid } from '../server/ids.js';
import { usersByEmail } from '../server/auth/accounts.js';
import { allStaffActions, staffActionsCsvHeader, staffActionsCsvRows, type StaffActionFilter } from '../server/staff/staff-actions.js';
import { STAFF_ACTION_NAMES, staffActionLabel } from '../ledger/contract/staff-activity.js';
import { FinanceUsageError, parseMoment } from './ledger-finance.js';

const STAFF_ACTIONS: readonly string[] = STAFF_ACTION_NAMES;

export const STAFF_HELP: Record<string, string> = {
  'staff-actions': `Usage: npm run ledger -- staff-actions [--staff <email|id>] [--customer <email|id>] [--action A] [--from <time>] [--to <time>] [--csv|--json]

Every staff action (staff accounts created, claims, notes, permissions, addresses, manual
transactions, settlements and edits, approvals, bans, password resets, KYC decisions and
document views, staff sign-ins), newest first, from the staff_activity read table: time,
action, maker (who did it or asked for it) and checker (the second person who approved it),
the account concerned, a short detail and the event. --staff matches the maker or the
checker. --csv prints what the Staff activity screen downloads.
Actions (--action takes the code): ${STAFF_ACTIONS.map((a) => `${a} (${staffActionLabel(a)})`).join(', ')}.
A date for --from means the start of that day, for --to the end of it (UTC); a time
without a zone is UTC.`,
};

export const STAFF_OPTIONS = {
  staff: { type: 'string' },
  customer: { type: 'string' },
  action: { type: 'string' },
} as const;

/** The options staff-actions takes; any other given is refused, not ignored. */
const TAKES = new Set(['staff', 'customer', 'action', 'from', 'to', 'csv', 'json', 'help']);

export async function staffActionsCommand(config: Config, values: Record<string, unknown>): Promise<number> {
  const other = Object.keys(values).find((k) => values[k] !== undefined && !TAKES.has(k));
  if (other) throw new FinanceUsageError(`staff-actions does not take --${other}. Run \`npm run ledger -- staff-actions --help\`.`);
  if (values.csv && values.json) throw new FinanceUsageError('Give --csv or --json, not both.');
  const filter: StaffActionFilter = {};
  if (values.action !== undefined) {
    if (!STAFF_ACTIONS.includes(String(values.action))) throw new FinanceUsageError(`--action must be one of ${STAFF_ACTIONS.join(', ')}.`);
    filter.action = String(values.action);
  }
  if (typeof values.from === 'string') filter.from = parseMoment(values.from, 'from', false);
  if (typeof values.to === 'string') filter.to = parseMoment(values.to, 'to', true);
  if (filter.from && filter.to && filter.from > filter.to) throw new FinanceUsageError('--from must not be after --to.');
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    await migrateToLatest(database.db);
    for (const [option, field] of [
      ['staff', 'staffId'],
      ['customer', 'customerId'],
    ] as const) {
      const given = values[option];
      if (given === undefined) continue;
      if (typeof given !== 'string' || !given.trim()) throw new FinanceUsageError(`--${option} needs an e-mail address or an id.`);
      const row = isUuid(given)
        ? await database.db.selectFrom('users').select('id').where('id', '=', given.toLowerCase()).executeTakeFirst()
        : await usersByEmail(database.db, given).select('id').executeTakeFirst();
      if (!row)
        throw new FinanceUsageError(`--${option}: no account ${isUuid(given) ? 'with the id' : 'with the e-mail address'} ${given}.`);
      filter[field] = row.id;
    }
    const pages = allStaffActions(database.db, filter);
    if (values.csv) {
      process.stdout.write(staffActionsCsvHeader());
      for await (const rows of pages) process.stdout.write(staffActionsCsvRows(rows));
    } else if (values.json) {
      const all = [];
      for await (const rows of pages) all.push(...rows);
      console.log(JSON.stringify({ actions: all }, null, 2));
    } else {
      let n = 0;
      for await (const rows of pages) {
        for (const r of rows) {
          const maker = r.maker_id ? `${r.maker_email ?? r.maker_id} (${r.maker_role ?? '?'})` : `operator (${r.maker_role ?? '?'})`;
          const checker = r.checker_id ? `  checked by ${r.checker_email ?? r.checker_id} (${r.checker_role ?? '?'})` : '';
          console.log(`${r.at}  ${r.action_name}  ${maker}${checker}  ${r.customer_email ?? r.customer_id ?? '-'}  ${r.detail}`);
          n++;
        }
      }
      console.log(n ? `${n.toLocaleString('en-US')} staff actions.` : 'No staff action matches.');
    }
    return 0;
  } finally {
    await database.close();
  }
}
