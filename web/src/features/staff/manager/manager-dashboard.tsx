import { Outlet } from 'react-router-dom';
import { ScreenTitle } from '@/components/screen-title.js';
import { RouteTabs } from '../shared/route-tabs.js';

const TABS = [
  { to: '/dashboard/manager/my-workers', label: 'My Workers' },
  { to: '/dashboard/manager/create-worker', label: 'Create Worker' },
  { to: '/dashboard/manager/actions', label: 'Actions' },
  { to: '/dashboard/manager/all-users', label: 'All Users' },
  { to: '/dashboard/manager/unassigned-tickets', label: 'Unassigned Tickets' },
  { to: '/dashboard/manager/approvals', label: 'Approvals' },
];

/** /dashboard/manager (spec 002, Manager Dashboard). */
export function ManagerDashboard() {
  return (
    <div className="staff-dashboard">
      <ScreenTitle>Manager Dashboard</ScreenTitle>
      <RouteTabs label="Manager Dashboard" tabs={TABS} />
      <div className="staff-dashboard__panel">
        <Outlet />
      </div>
    </div>
  );
}
