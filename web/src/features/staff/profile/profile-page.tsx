import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { Link, NavLink, Navigate, Outlet, useParams } from 'react-router-dom';
import { ScreenTitle } from '@/components/screen-title.js';
import { useSession } from '@/lib/session.js';
import { ApiError } from '@/lib/api-client.js';
import { profileApi } from './api/calls.js';
import { DETAILS_FAILED, profileKeys, useProfileDetails } from './api/queries.js';
import { serverWords } from '@/lib/error-text.js';
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

const DENIED_ROLE = 'Access Denied: Your role cannot view user profiles.';
const DENIED_USER = 'Access Denied: You do not have permission to view this profile.';

/**
 * Whether the signed-in staff member may open this user's profile (spec 002 section 6): a
 * worker must own the user, a manager or an admin must be authorized for them, any other role
 * is refused. Each question goes to the server, which also refuses every profile call itself.
 */
async function checkAccess(role: string, userId: string): Promise<Access> {
  const allowed = (yes: boolean): Access => (yes ? { state: 'allowed' } : { state: 'denied', reason: DENIED_USER });
  try {
    if (role === 'WORKER') return allowed((await profileApi.checkOwnership(userId)).isOwner);
    if (role === 'MANAGER' || role === 'ADMIN') return allowed((await profileApi.checkManagerAccess(userId)).isAuthorized);
    return { state: 'denied', reason: DENIED_ROLE };
  } catch (error) {
    return {
      state: 'denied',
      reason: error instanceof ApiError && error.message ? error.message : 'An error occurred during verification.',
    };
  }
}

/** The User Profile shell (spec 002): header, side navigation and the selected tab, once the access check lets the caller in. */
export function UserProfilePage() {
  const { userId } = useParams();
  const role = useSession((s) => s.role);
  // Asked again each time the profile opens (nothing kept once it closes): 'checking' meanwhile.
  const accessQuery = useQuery({
    queryKey: ['staff-profile', userId, 'access', role],
    enabled: Boolean(userId && role),
    gcTime: 0,
    queryFn: () => checkAccess(role!, userId!),
  });
  const access: Access = accessQuery.data ?? { state: 'checking' };
  const client = useQueryClient();
  const detailsQuery = useProfileDetails(userId ?? '', Boolean(userId) && access.state === 'allowed');
  const details = detailsQuery.data ?? null;
  const detailsError = detailsQuery.error ? serverWords(detailsQuery.error, DETAILS_FAILED) : null;

  const reload = useCallback(async () => {
    if (userId) await client.invalidateQueries({ queryKey: profileKeys.details(userId) });
  }, [client, userId]);

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
      <ScreenTitle
        subtitle={
          <>
            Managing user: <span className="mono">{userId}</span>
          </>
        }
      >
        User Profile
      </ScreenTitle>
      {detailsError && (
        <p className="banner banner--error" role="alert">
          {detailsError}
        </p>
      )}
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
