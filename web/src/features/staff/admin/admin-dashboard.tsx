import { Outlet } from 'react-router-dom';
import { ScreenTitle } from '@/components/screen-title.js';
import { RouteTabs } from '../shared/route-tabs.js';
import '../worker/staff-dashboard.css';

const TABS = [
  { to: '/dashboard/admin/staff-activity', label: 'Staff activity' },
  { to: '/dashboard/admin/approvals', label: 'Approvals' },
];

/** /dashboard/admin (spec 002, Admin Dashboard): the welcome, and the admin's tabs under it (Approvals: every team's). */
export function AdminDashboard() {
  return (
    <div className="staff-dashboard">
      <ScreenTitle subtitle="Welcome to the admin dashboard.">Admin Dashboard</ScreenTitle>
      <RouteTabs label="Admin Dashboard" tabs={TABS} />
      <div className="staff-dashboard__panel">
        <Outlet />
      </div>
    </div>
  );
}
