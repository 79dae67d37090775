import { NavLink } from 'react-router-dom';
import { formatListDate } from '@/lib/money.js';

/* What the staff dashboards share (worker, manager, admin): their route tabs and the list date. */

export type RouteTab = { to: string; label: string };

/** Tabs that are routes (the dashboards' children): a tab is a link, the selected one is the current page. */
export function RouteTabs({ label, tabs }: { label: string; tabs: RouteTab[] }) {
  return (
    <nav className="tabs__list route-tabs" aria-label={label}>
      {tabs.map((tab) => (
        <NavLink key={tab.to} to={tab.to} className="tabs__tab route-tabs__tab">
          {tab.label}
        </NavLink>
      ))}
    </nav>
  );
}

/** The spec's list date, the format module's day form 'dd MMM yyyy' (e.g. 05 Mar 2025); 'N/A' when missing. */
export function listDate(value: string | null | undefined): string {
  return formatListDate(value) || 'N/A';
}
