import { useState } from 'react';
import { Banner } from '@/components/banner.js';
import { SkeletonRows } from '@/components/skeleton-rows.js';
import { formatListDateTime } from '@/lib/money.js';
import { LOGIN_HISTORY_FAILED, LOGIN_HISTORY_PAGE_SIZE, useLoginHistory } from '../api/security.js';
import { LoginHistoryPager, LoginHistoryTable } from '@/components/login-history.js';

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
        <LoginHistoryTable rows={rows} when={when} look="settings" />
      )}
      <LoginHistoryPager
        page={page}
        onPageChange={setPage}
        previousDisabled={loading || page <= 1}
        nextDisabled={loading || Boolean(error) || rows.length < LOGIN_HISTORY_PAGE_SIZE}
      />
    </section>
  );
}
