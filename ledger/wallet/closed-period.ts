import { WalletError } from './commands.js';

/** What a staff member reads when a manual transaction is dated inside a closed period. */
export const closedPeriodMessage = (closedThrough: string) =>
  `The books are closed through ${closedThrough.slice(0, 10)}. Date this transaction after that; a correction of a closed period is an adjusting entry in the open period.`;

/**
 * A closed period of the books is final: an entry whose value date falls on or before the
 * closed-through moment is refused. `closedThrough` is a fact the command carries (read from
 * the books' stream by whoever builds it, as prices are); absent or null: no period is closed.
 */
export function requireOpenPeriod(valueDate: string, closedThrough: string | null | undefined): void {
  if (!closedThrough) return;
  if (Date.parse(valueDate) <= Date.parse(closedThrough)) throw new WalletError('invalid_state', closedPeriodMessage(closedThrough));
}
