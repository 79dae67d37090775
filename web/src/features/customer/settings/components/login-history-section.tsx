import { useState } from 'react';
import { Banner } from '@/components/banner.js';
import { SkeletonRows } from '@/components/skeleton-rows.js';
import { describeDevice } from '@/lib/device.js';
import { formatListDateTime } from '@/lib/money.js';
import { LOGIN_HISTORY_FAILED, LOGIN_HISTORY_PAGE_SIZE, useLoginHistory } from '../api/security.js';
import { ScrollArea } from '@/components/scroll-area.js';

/** The app's list format ('dd MMM yyyy | HH:mm'), the raw text when it is no date. */
const when = (iso: string) => formatListDateTime(iso) || iso;

/** Settings > Security > Login History, five entries a page; Next stops when a page comes back short. */
export function LoginHistorySection() {
  const [page, setPage] = useState(1);
  const history = useLoginHistory(page);
  const rows = history.data ?? [];
  const loading = history.isFetching;
  const error = history.error ? LOGIN_HISTORY_FAILED : null;

  return (
    <section className="security-section" aria-labelledby="login-history-title">
      <h3 id="login-history-title" className="security-section__title">
        Login History
      </h3>
      {error ? (
        <Banner variant="error">{error}</Banner>
      ) : loading && rows.length === 0 ? (
        <SkeletonRows rows={3} label="Loading login history..." />
      ) : rows.length === 0 ? (
        <p className="empty-text">No login history found.</p>
      ) : (
        <ScrollArea className="table-scroll" label="Login history">
          <table className="history-table table--stack">
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
                  <td data-label="Date & Time" className="history-table__when">
                    {when(r.timestamp)}
                  </td>
                  <td data-label="IP Address" className="mono">
                    {r.ip_address ?? 'Unknown'}
                  </td>
                  <td data-label="Client" className="history-table__client" title={r.user_agent ?? undefined}>
                    {describeDevice(r.user_agent)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollArea>
      )}
      <nav className="pager" aria-label="Login history pages">
        <button
          type="button"
          className="button button--secondary pager__button"
          disabled={loading || page <= 1}
          onClick={() => setPage((p) => p - 1)}
        >
          Previous
        </button>
        <span className="pager__label">Page {page}</span>
        <button
          type="button"
          className="button button--secondary pager__button"
          disabled={loading || Boolean(error) || rows.length < LOGIN_HISTORY_PAGE_SIZE}
          onClick={() => setPage((p) => p + 1)}
        >
          Next
        </button>
      </nav>
    </section>
  );
}
