import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Banner } from '@/components/banner.js';
import { Pager } from '@/components/pager.js';
import { SkeletonRows } from '@/components/skeleton-rows.js';
import { listDate } from '../shared/route-tabs.js';
import { useManagedUsers } from './api.js';

/** Spec 002 section 9: 10 per page, search debounced 500 ms and back to page 1. */
const PAGE_SIZE = 10;
const SEARCH_DEBOUNCE_MS = 500;

const KYC_LABEL: Record<string, string> = {
  verified: 'Verified',
  pending: 'Pending Review',
  rejected: 'Rejected',
  not_started: 'Not Started',
};

/** All Users (Assigned to My Workers): searchable, paged table (spec 002). */
export function AllUsersTab() {
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const { data, loading, error } = useManagedUsers(page, PAGE_SIZE, search);

  useEffect(() => {
    const timer = window.setTimeout(() => {
      setSearch(input.trim());
      setPage(1);
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [input]);

  const pageCount = Math.max(1, Math.ceil((data?.totalCount ?? 0) / PAGE_SIZE));
  return (
    <section className="card staff-card" aria-labelledby="all-users-title">
      <h2 id="all-users-title" className="card__title">
        All Users (Assigned to My Workers)
      </h2>
      <div className="field staff-search-box">
        <label className="visually-hidden" htmlFor="all-users-search">
          Search users
        </label>
        <input
          id="all-users-search"
          className="field__input"
          type="search"
          placeholder="Search by name or email..."
          value={input}
          onChange={(e) => setInput(e.target.value)}
        />
      </div>
      {error && <Banner variant="error">{error}</Banner>}
      <div className="staff-table-wrap">
        <table className="staff-table table--stack">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">KYC Status</th>
              <th scope="col">User Since</th>
              <th scope="col">Assigned Worker</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          {!loading && data && data.users.length > 0 && (
            <tbody>
              {data.users.map((u) => (
                <tr key={u.id}>
                  <td data-label="Name">{u.full_name || 'N/A'}</td>
                  <td data-label="Email">{u.email || 'N/A'}</td>
                  <td data-label="KYC Status">
                    <span className={`status-badge status-badge--kyc-${u.kyc_status ?? 'not_started'}`}>
                      {KYC_LABEL[u.kyc_status ?? 'not_started'] ?? 'Not Started'}
                    </span>
                  </td>
                  <td data-label="User Since">{listDate(u.created_at)}</td>
                  <td data-label="Assigned Worker">{u.assigned_worker_name || 'N/A'}</td>
                  <td className="staff-table__actions">
                    <Link className="button button--secondary" to={`/dashboard/user-profile/${u.id}`}>
                      Edit
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          )}
        </table>
        {loading && <SkeletonRows rows={5} columns={6} label="Loading users..." />}
      </div>
      {!loading && !error && data && data.users.length === 0 && (
        <p className="empty-text">No users found assigned to your managed workers.</p>
      )}
      {!loading && data && <Pager page={page} pageCount={pageCount} onPageChange={setPage} total={data.totalCount} />}
    </section>
  );
}
