import { Component, lazy, Suspense, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { Navigate, useLocation, useRoutes, type RouteObject } from 'react-router-dom';
import { Banner } from '../components/banner.js';
import { Button } from '../components/button.js';
import { Card } from '../components/card.js';
import { ProtectedRoute, RoleRoute, RootLayout } from './route-guards.js';
import { AREA_ROLES } from './role-home.js';

/*
 * Each area is loaded on demand (React.lazy), so the first screen only downloads what it shows.
 * The build puts everything under features/<area>/ into one chunk per area
 * (see web/vite.config.ts):
 *   auth      /login, /verify-mfa (and, apart, /register, /update-password, /force-password-change)
 *   shell     the dashboard frame: sidebar, top bar, user menu
 *   customer  /dashboard/overview ... /dashboard/marketplace/...
 *   staff     /dashboard/worker, /dashboard/manager, /dashboard/admin, /dashboard/user-profile/:userId
 *   errors    the 404 page
 * The routes are plain elements under <BrowserRouter> (no data router: its code was a third of
 * the sign-in screen's JavaScript, and no screen uses loaders or actions).
 */

/** A route's screen, its code fetched the first time the route is shown. */
function screen<M>(load: () => Promise<M>, pick: (m: M) => ComponentType): ReactNode {
  const Screen = lazy(async () => ({ default: pick(await load()) }));
  return (
    <Suspense fallback={<PageLoading />}>
      <Screen />
    </Suspense>
  );
}

const auth = () => import('../features/auth/login-page.js');
const customer = () => import('../features/customer/customer-screens.js');
const staff = () => import('../features/staff/staff-screens.js');

function customerScreen(path: string, pick: (m: Awaited<ReturnType<typeof customer>>) => ComponentType): RouteObject {
  return { path, element: screen(customer, pick) };
}

function staffScreen(path: string, pick: (m: Awaited<ReturnType<typeof staff>>) => ComponentType): RouteObject {
  return { path, element: screen(staff, pick) };
}

const profile = () => import('../features/staff/profile/profile-tabs.js');
function profileTab(path: string, pick: (m: Awaited<ReturnType<typeof profile>>) => ComponentType): RouteObject {
  return { path, element: screen(profile, pick) };
}

const dashboardRoutes: RouteObject[] = [
  { index: true, element: <Navigate to="overview" replace /> },
  customerScreen('overview', (m) => m.OverviewPage),
  customerScreen('settings', (m) => m.SettingsPage),
  customerScreen('payments', (m) => m.PaymentsPage),
  customerScreen('wallets', (m) => m.WalletsPage),
  customerScreen('transactions', (m) => m.TransactionsPage),
  customerScreen('support', (m) => m.SupportPage),
  customerScreen('marketplace/swap', (m) => m.SwapPage),
  customerScreen('marketplace/stake/plans', (m) => m.StakePlansPage),
  customerScreen('marketplace/stake/manage', (m) => m.ManageStakesPage),
  {
    element: <RoleRoute allow={AREA_ROLES.worker} />,
    children: [
      {
        path: 'worker',
        element: screen(staff, (m) => m.WorkerDashboardPage),
        children: [
          { index: true, element: <Navigate to="search-user" replace /> },
          staffScreen('search-user', (m) => m.SearchUserTab),
          staffScreen('my-users', (m) => m.MyUsersTab),
          {
            path: 'support-tickets',
            element: screen(
              () => import('../features/staff/tickets/worker-tickets-tab.js'),
              (m) => m.WorkerTicketsTab,
            ),
          },
          staffScreen('stake', (m) => m.StakeManagementTab),
          staffScreen('approvals', (m) => m.ApprovalsTab),
        ],
      },
    ],
  },
  {
    element: <RoleRoute allow={AREA_ROLES.manager} />,
    children: [
      {
        path: 'manager',
        element: screen(staff, (m) => m.ManagerDashboardPage),
        children: [
          { index: true, element: <Navigate to="my-workers" replace /> },
          staffScreen('my-workers', (m) => m.MyWorkersTab),
          staffScreen('create-worker', (m) => m.CreateWorkerTab),
          staffScreen('actions', (m) => m.ActionsTab),
          staffScreen('all-users', (m) => m.AllUsersTab),
          {
            path: 'unassigned-tickets',
            element: screen(
              () => import('../features/staff/manager/unassigned-tickets-tab.js'),
              (m) => m.UnassignedTicketsTab,
            ),
          },
          staffScreen('approvals', (m) => m.ApprovalsTab),
        ],
      },
    ],
  },
  {
    element: <RoleRoute allow={AREA_ROLES.admin} />,
    children: [
      {
        path: 'admin',
        element: screen(staff, (m) => m.AdminDashboardPage),
        children: [
          { index: true, element: <Navigate to="staff-activity" replace /> },
          staffScreen('staff-activity', (m) => m.StaffActivityTab),
          staffScreen('approvals', (m) => m.ApprovalsTab),
        ],
      },
    ],
  },
  {
    element: <RoleRoute allow={AREA_ROLES.profile} />,
    children: [
      {
        path: 'user-profile/:userId',
        element: screen(staff, (m) => m.UserProfilePage),
        children: [
          { index: true, element: <Navigate to="general" replace /> },
          profileTab('general', (m) => m.GeneralTab),
          profileTab('wallets', (m) => m.WalletsTab),
          profileTab('transactions', (m) => m.TransactionsTab),
          {
            path: 'verification',
            element: screen(
              () => import('../features/staff/profile/verification-tab.js'),
              (m) => m.VerificationTab,
            ),
          },
          profileTab('payment-management', (m) => m.PaymentManagementTab),
          profileTab('events', (m) => m.EventTrailTab),
        ],
      },
    ],
  },
  { path: '*', element: <Navigate to="/dashboard/overview" replace /> },
];

const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { index: true, element: <Navigate to="/login" replace /> },
      { path: 'login', element: screen(auth, (m) => m.LoginPage) },
      { path: 'verify-mfa', element: screen(auth, (m) => m.VerifyMfaPage) },
      {
        path: 'register',
        element: screen(
          () => import('../features/auth/register-page.js'),
          (m) => m.RegisterPage,
        ),
      },
      {
        path: 'update-password',
        element: screen(
          () => import('../features/auth/update-password-page.js'),
          (m) => m.UpdatePasswordPage,
        ),
      },
      {
        path: 'force-password-change',
        element: screen(
          () => import('../features/auth/force-password-change-page.js'),
          (m) => m.ForcePasswordChangePage,
        ),
      },
      {
        path: 'dashboard',
        element: <ProtectedRoute />,
        children: [
          {
            element: screen(
              () => import('../features/shell/dashboard-layout.js'),
              (m) => m.DashboardLayout,
            ),
            children: dashboardRoutes,
          },
        ],
      },
      {
        path: '*',
        element: screen(
          () => import('../features/errors/not-found-page.js'),
          (m) => m.NotFoundPage,
        ),
      },
    ],
  },
];

/** The app's screens; a screen that fails to load or render shows the error page instead. */
export function AppRoutes() {
  const { pathname } = useLocation();
  const element = useRoutes(routes);
  return <RouteErrorBoundary pathname={pathname}>{element}</RouteErrorBoundary>;
}

function PageLoading() {
  return (
    <div className="page-loading" role="status" aria-live="polite">
      Loading...
    </div>
  );
}

/** Catches what a screen throws while loading or rendering, e.g. a chunk lost after a new deploy. */
type BoundaryProps = { pathname: string; children: ReactNode };
type BoundaryState = { error: unknown; at: string };

class RouteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null, at: this.props.pathname };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error };
  }

  /** Going to another path after an error shows that screen again. */
  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.pathname === state.at ? null : { error: null, at: props.pathname };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    return this.state.error ? <RouteErrorPage error={this.state.error} /> : this.props.children;
  }
}

function RouteErrorPage({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : 'An unexpected error occurred. Please try again later.';

  return (
    <main className="page page--centered">
      <Card className="card--narrow">
        <h1 className="card__title">Something went wrong</h1>
        <Banner variant="error">{message}</Banner>
        <div className="actions">
          <Button onClick={() => window.location.reload()}>Reload the page</Button>
        </div>
      </Card>
    </main>
  );
}
