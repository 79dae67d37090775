import { Outlet } from 'react-router-dom';
import { ScreenTitle } from '@/components/screen-title.js';
import { AnnouncementBanner } from './announcement-banner.js';
import { RouteTabs } from '../shared/route-tabs.js';

const TABS = [
  { to: '/dashboard/worker/search-user', label: 'Search User' },
  { to: '/dashboard/worker/my-users', label: 'My Users' },
  { to: '/dashboard/worker/support-tickets', label: 'Support Tickets' },
  { to: '/dashboard/worker/stake', label: 'Stake Management' },
  { to: '/dashboard/worker/approvals', label: 'My Requests' },
];

/** /dashboard/worker: the announcement banner above the four tabs (spec 002, Worker Dashboard). */
export function WorkerDashboard() {
  return (
    <div className="staff-dashboard">
      <ScreenTitle>Worker Dashboard</ScreenTitle>
      <AnnouncementBanner />
      <RouteTabs label="Worker Dashboard" tabs={TABS} />
      <div className="staff-dashboard__panel">
        <Outlet />
      </div>
    </div>
  );
}

export function StakeManagementTab() {
  return (
    <section className="card staff-card" aria-labelledby="stake-title">
      <h2 id="stake-title" className="card__title">
        Stake Management
      </h2>
      <p className="placeholder-text">Content for managing staking activities will go here.</p>
    </section>
  );
}
