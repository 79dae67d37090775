import { useCallback, useEffect, useState } from 'react';
import { Link, NavLink, Navigate, Outlet, useParams } from 'react-router-dom';
import { ScreenTitle } from '../../../components/screen-title.js';
import { useSession } from '../../../lib/session.js';
import { ApiError } from '../../../lib/api-client.js';
import { profileApi, type ProfileDetails } from './api.js';
import type { ProfileContext } from './profile-context.js';
import './profile.css';

const TABS = [
  { to: 'general', label: 'General' },
  { to: 'wallets', label: 'Wallets' },
  { to: 'transactions', label: 'Transactions' },
  { to: 'verification', label: 'Verification & Docs' },
  { to: 'payment-management', label: 'Payment Management' },
  { to: 'events', label: 'Event trail' },
] as const;

type Access = { state: 'checking' } | { state: 'allowed' } | { state: 'denied'; reason: string };

/**
 * The User Profile shell (spec 002): header, side navigation and the selected tab. Access is
 * the server's one rule: the profile-details call answers 403 with the reason when the
 * staff member may not manage this user.
 */
export function UserProfilePage() {
  const { userId } = useParams();
  const role = useSession((s) => s.role);
  const [access, setAccess] = useState<Access>({ state: 'checking' });
  const [details, setDetails] = useState<ProfileDetails | null>(null);

  const reload = useCallback(async () => {
    if (!userId) return;
    try {
      setDetails(await profileApi.details(userId));
      setAccess({ state: 'allowed' });
    } catch (error) {
      if (error instanceof ApiError && (error.status === 403 || error.status === 404)) {
        setAccess({ state: 'denied', reason: error.message });
      } else {
        setAccess((a) => (a.state === 'allowed' ? a : { state: 'denied', reason: error instanceof Error ? error.message : 'An error occurred during verification.' }));
      }
    }
  }, [userId]);

  useEffect(() => {
    setAccess({ state: 'checking' });
    setDetails(null);
    void reload();
  }, [reload]);

  if (!userId) return <Navigate to="/dashboard/worker/my-users" replace />;
  const home = role === 'WORKER' ? '/dashboard/worker/my-users' : '/dashboard';

  if (access.state === 'checking') {
    return (
      <p className="page-status" role="status">
        Verifying access...
      </p>
    );
  }
  if (access.state === 'denied') {
    return (
      <section className="card profile-denied" role="alert">
        <h1 className="card__title">Access Denied</h1>
        <p>{access.reason.startsWith('Access Denied') ? access.reason : `Access Denied: ${access.reason}`}</p>
        <Link className="button button--primary" to={home}>
          Return to Dashboard
        </Link>
      </section>
    );
  }

  const context: ProfileContext = { userId, details, reload };
  return (
    <div className="user-profile">
      {role === 'WORKER' && (
        <Link className="link-button profile-back" to="/dashboard/worker/my-users">
          ← Back to My Users
        </Link>
      )}
      <ScreenTitle subtitle={<>Managing user: <span className="mono">{userId}</span></>}>User Profile</ScreenTitle>
      <div className="profile-layout">
        <nav className="profile-nav" aria-label="User profile">
          {TABS.map((tab) => (
            <NavLink key={tab.to} to={tab.to} className="profile-nav__link">
              {tab.label}
            </NavLink>
          ))}
        </nav>
        <div className="profile-content">
          <Outlet context={context} />
        </div>
      </div>
    </div>
  );
}
