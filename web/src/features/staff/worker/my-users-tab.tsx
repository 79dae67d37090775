import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Banner } from '../../../components/banner.js';
import { Button } from '../../../components/button.js';
import { Pager } from '../../../components/pager.js';
import { SkeletonRows } from '../../../components/skeleton-rows.js';
import { listMyUsers, type OwnedUser } from './api.js';
import { formatListDate } from './route-tabs.js';

const PAGE_SIZE = 10;

/** My Users: the customers this worker claimed, 10 per page, each with Edit (spec 002). */
export function MyUsersTab() {
  const navigate = useNavigate();
  const [users, setUsers] = useState<OwnedUser[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [page, setPage] = useState(1);

  useEffect(() => {
    let cancelled = false;
    listMyUsers()
      .then((list) => !cancelled && setUsers(list))
      .catch(() => !cancelled && setError('Failed to load owned users.'));
    return () => {
      cancelled = true;
    };
  }, []);

  const pageCount = Math.max(1, Math.ceil((users?.length ?? 0) / PAGE_SIZE));
  const shown = users?.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE) ?? [];
  return (
    <section className="card staff-card" aria-labelledby="my-users-title">
      <h2 id="my-users-title" className="card__title">
        My Users
      </h2>
      {error && <Banner variant="error">{error}</Banner>}
      {!users && !error && <SkeletonRows rows={5} columns={4} label="Loading users..." />}
      {users && users.length === 0 && <p className="empty-text">You have not claimed any users yet.</p>}
      {users && users.length > 0 && (
        <div className="staff-table-wrap">
          <table className="staff-table">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">User ID</th>
                <th scope="col">Profile Created</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((u) => (
                <tr key={u.profile_user_id}>
                  <td>{u.user_email}</td>
                  <td className="mono">{u.profile_user_id}</td>
                  <td>{formatListDate(u.profile_created_at)}</td>
                  <td className="staff-table__actions">
                    <Button variant="secondary" onClick={() => navigate(`/dashboard/user-profile/${u.profile_user_id}/general`)} aria-label={`Edit ${u.user_email}`}>
                      Edit
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} pageCount={pageCount} onPageChange={setPage} />
    </section>
  );
}
