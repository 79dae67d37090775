import { useEffect, useId, useState, type ReactNode } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import type { Role } from '@/lib/auth-types.js';
import { icons } from './icons.js';

type SidebarProps = {
  id: string;
  role: Role | '';
  /** Under 768 px the sidebar is a drawer: these say whether it is shown and how it closes. */
  isDrawer: boolean;
  open: boolean;
  onClose: () => void;
  /** Called after a link was chosen. */
  onNavigate: () => void;
};

const STAFF_PANELS: Partial<Record<Role, { title: string; link: string; to: string }>> = {
  WORKER: { title: 'Worker Panel', link: 'Worker Dashboard', to: '/dashboard/worker' },
  MANAGER: { title: 'Manager Panel', link: 'Manager Dashboard', to: '/dashboard/manager' },
  ADMIN: { title: 'Admin Panel', link: 'Admin Dashboard', to: '/dashboard/admin' },
};

function Section({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className="sidebar__section" aria-labelledby={headingId}>
      <h2 id={headingId} className="sidebar__heading">
        {title}
      </h2>
      <ul className="sidebar__list">{children}</ul>
    </section>
  );
}

function Item({ to, icon, children, onNavigate }: { to: string; icon?: ReactNode; children: ReactNode; onNavigate: () => void }) {
  return (
    <li>
      <NavLink to={to} className="sidebar__link" onClick={onNavigate}>
        {icon ?? <span className="sidebar__bullet" aria-hidden="true" />}
        <span>{children}</span>
      </NavLink>
    </li>
  );
}

/** The dashboard's navigation (spec 2.6): staff panel by role, General, Marketplace, Support & Settings. */
export function Sidebar({ id, role, isDrawer, open, onClose, onNavigate }: SidebarProps) {
  const { pathname } = useLocation();
  const inStake = pathname.startsWith('/dashboard/marketplace/stake');
  const [stakeOpen, setStakeOpen] = useState(inStake);
  const stakeListId = useId();
  const staff = role ? STAFF_PANELS[role] : undefined;

  useEffect(() => {
    if (inStake) setStakeOpen(true);
  }, [inStake]);

  const hidden = isDrawer && !open;

  return (
    <aside
      id={id}
      className={`sidebar${isDrawer ? ' sidebar--drawer' : ''}${open ? ' sidebar--open' : ''}`}
      aria-label="Main navigation"
      inert={hidden}
    >
      <div className="sidebar__top">
        <span className="sidebar__brand">
          <span className="brand-mark brand-mark--small" aria-hidden="true">
            {icons.wallets}
          </span>
          <span>wallet-ledger</span>
        </span>
        {isDrawer && (
          <button type="button" className="icon-button" aria-label="Close navigation menu" onClick={onClose}>
            {icons.close}
          </button>
        )}
      </div>
      <nav className="sidebar__nav" aria-label="Dashboard">
        {staff && (
          <Section title={staff.title}>
            <Item to={staff.to} icon={icons.staff} onNavigate={onNavigate}>
              {staff.link}
            </Item>
          </Section>
        )}
        <Section title="General">
          <Item to="/dashboard/overview" icon={icons.overview} onNavigate={onNavigate}>
            Overview
          </Item>
          <Item to="/dashboard/wallets" icon={icons.wallets} onNavigate={onNavigate}>
            Wallets
          </Item>
          <Item to="/dashboard/transactions" icon={icons.transactions} onNavigate={onNavigate}>
            Transactions
          </Item>
          <Item to="/dashboard/payments" icon={icons.payments} onNavigate={onNavigate}>
            Payments
          </Item>
        </Section>
        <Section title="Marketplace">
          <Item to="/dashboard/marketplace/swap" icon={icons.swap} onNavigate={onNavigate}>
            Swap Crypto
          </Item>
          <li>
            <button
              type="button"
              className={`sidebar__link sidebar__group${inStake ? ' sidebar__group--active' : ''}`}
              aria-expanded={stakeOpen}
              aria-controls={stakeListId}
              onClick={() => setStakeOpen((v) => !v)}
            >
              {icons.stake}
              <span>Stake</span>
              <span className={`sidebar__chevron${stakeOpen ? ' sidebar__chevron--open' : ''}`}>{icons.chevron}</span>
            </button>
            <ul id={stakeListId} className="sidebar__sublist" hidden={!stakeOpen}>
              <Item to="/dashboard/marketplace/stake/plans" onNavigate={onNavigate}>
                Stake Plans
              </Item>
              <Item to="/dashboard/marketplace/stake/manage" onNavigate={onNavigate}>
                Manage Stakes
              </Item>
            </ul>
          </li>
        </Section>
        <Section title="Support & Settings">
          <Item to="/dashboard/settings" icon={icons.settings} onNavigate={onNavigate}>
            Account Settings
          </Item>
          <Item to="/dashboard/support" icon={icons.support} onNavigate={onNavigate}>
            Support Tickets
          </Item>
        </Section>
      </nav>
    </aside>
  );
}
