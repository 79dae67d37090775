import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { pendingSecondFactor, type Role } from '../lib/auth-types.js';
import { fetchCurrentUser, useSession } from '../lib/session.js';
import { areaRedirect, redirectFor } from './role-home.js';

function currentPath(location: { pathname: string; search: string; hash: string }): string {
  return `${location.pathname}${location.search}${location.hash}`;
}

export function LoadingAuthentication() {
  return (
    <div className="page-loading" role="status" aria-live="polite">
      <span className="button__spinner" aria-hidden="true" />
      Loading Authentication...
    </div>
  );
}

/** Where the second step of sign-in is shown: the sign-in screen and its /verify-mfa entry. */
const SECOND_STEP_PATHS = new Set(['/login', '/verify-mfa']);

/**
 * Every page: a user whose password was reset by staff must choose a new one first, once
 * signed in completely. A second step still owed comes before that (spec 4.1, step 1): until
 * it is done the server refuses the new password, so the forced change waits for it.
 */
export function RootLayout() {
  const mustChangePassword = useSession((s) => s.status === 'ready' && s.session !== null && s.requiresPasswordChange);
  const secondStepOwed = useSession((s) => s.status === 'ready' && pendingSecondFactor(s.session) !== null);
  const { pathname } = useLocation();
  if (mustChangePassword && secondStepOwed) {
    return SECOND_STEP_PATHS.has(pathname) ? <Outlet /> : <Navigate to="/verify-mfa" replace />;
  }
  if (mustChangePassword && pathname !== '/force-password-change') {
    return <Navigate to="/force-password-change" replace />;
  }
  return <Outlet />;
}

/**
 * Everything under /dashboard: needs a session, and a session that has done its second
 * step when the user has one (spec 2.1). A staff area the session's role may not open sends
 * it home here, at once, rather than after the dashboard's shell has loaded (RoleRoute).
 */
export function ProtectedRoute() {
  const status = useSession((s) => s.status);
  const session = useSession((s) => s.session);
  const role = useSession((s) => s.role);
  const location = useLocation();
  const token = session?.access_token ?? null;

  // Once per token, read the user again: factors, role and flags may have changed elsewhere.
  // A failure of this check is ignored; the stored copy stands.
  useEffect(() => {
    if (token) fetchCurrentUser().catch(() => undefined);
  }, [token]);

  if (status === 'loading') return <LoadingAuthentication />;
  if (!session) return <Navigate to="/login" replace state={{ returnTo: currentPath(location) }} />;
  if (pendingSecondFactor(session)) {
    return <Navigate to="/verify-mfa" replace state={{ returnTo: currentPath(location) }} />;
  }
  const home = areaRedirect(location.pathname, role);
  if (home) return <Navigate to={home} replace />;
  return <Outlet />;
}

/**
 * A staff area (its routes nest under this): a role that may not use it is sent to its own
 * home (a customer to the overview, staff to their dashboard) before anything of it renders.
 * ProtectedRoute already does so by the path before the shell loads; this holds the rule
 * where the routes are declared.
 */
export function RoleRoute({ allow }: { allow: readonly Role[] }) {
  const role = useSession((s) => s.role);
  const to = redirectFor(role, allow);
  return to ? <Navigate to={to} replace /> : <Outlet />;
}
