import { useNavigate } from 'react-router-dom';
import { Button } from '@/components/button.js';
import { PagedTable } from '../paged-table.js';
import { listMyUsers, type OwnedUser } from './api.js';
import { listDate } from '../shared/route-tabs.js';

const loadPage = async (page: number, pageSize: number) => {
  const answer = await listMyUsers(page, pageSize);
  return { rows: answer.ownedUsers, totalCount: answer.totalCount };
};

/** My Users: the customers this worker claimed, 10 per page, each with Edit (spec 002). */
export function MyUsersTab() {
  const navigate = useNavigate();
  return (
    <PagedTable<OwnedUser>
      titleId="my-users-title"
      title="My Users"
      loadPage={loadPage}
      loadFailure={() => 'Failed to load owned users.'}
      loadingLabel="Loading users..."
      emptyText="You have not claimed any users yet."
      columns={['Email', 'User ID', 'Profile Created']}
      rowKey={(u) => u.profile_user_id}
      cells={(u) => (
        <>
          <td data-label="Email">{u.user_email}</td>
          <td data-label="User ID" className="mono">
            {u.profile_user_id}
          </td>
          <td data-label="Profile Created">{listDate(u.profile_created_at)}</td>
        </>
      )}
      actions={(u) => (
        <Button
          variant="secondary"
          onClick={() => navigate(`/dashboard/user-profile/${u.profile_user_id}/general`)}
          aria-label={`Edit ${u.user_email}`}
        >
          Edit
        </Button>
      )}
    />
  );
}
