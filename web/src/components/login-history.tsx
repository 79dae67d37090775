import type { z } from 'zod';
import type { LoginEntry } from '@ledger/contract/access.js';
import { describeDevice } from '@/lib/device.js';
import { ScrollArea } from './scroll-area.js';

type Entry = z.infer<typeof LoginEntry>;

/** Where the table stands: the customer's Settings > Security, or the staff's user profile. */
const LOOKS = {
  settings: { wrap: 'table-scroll', table: 'history-table', when: 'history-table__when', client: 'history-table__client' },
  profile: { wrap: 'profile-table-wrap', table: 'profile-table', when: undefined, client: 'profile-table__client' },
} as const;

/**
 * A page of the login history (spec 001 Settings > Security, spec 002 user profile): date and
 * time, IP address, and the client as a browser and system (its full user agent on hover).
 */
export function LoginHistoryTable({ rows, when, look }: { rows: Entry[]; when: (iso: string) => string; look: keyof typeof LOOKS }) {
  const css = LOOKS[look];
  return (
    <ScrollArea className={css.wrap} label="Login history">
      <table className={`${css.table} table--stack`}>
        <thead>
          <tr>
            <th scope="col">Date &amp; Time</th>
            <th scope="col">IP Address</th>
            <th scope="col">Client</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <td data-label="Date & Time" className={css.when}>
                {when(r.timestamp)}
              </td>
              <td data-label="IP Address" className="mono">
                {r.ip_address ?? 'Unknown'}
              </td>
              <td data-label="Client" className={css.client} title={r.user_agent || undefined}>
                {describeDevice(r.user_agent)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}

/** Previous / 'Page N' / Next under the login history, whose end shows as a page shorter than the page size. */
export function LoginHistoryPager({
  page,
  onPageChange,
  previousDisabled,
  nextDisabled,
}: {
  page: number;
  onPageChange: (page: number) => void;
  previousDisabled: boolean;
  nextDisabled: boolean;
}) {
  return (
    <nav className="pager" aria-label="Login history pages">
      <button
        type="button"
        className="button button--secondary pager__button"
        disabled={previousDisabled}
        onClick={() => onPageChange(page - 1)}
      >
        Previous
      </button>
      <span className="pager__label">Page {page}</span>
      <button
        type="button"
        className="button button--secondary pager__button"
        disabled={nextDisabled}
        onClick={() => onPageChange(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
