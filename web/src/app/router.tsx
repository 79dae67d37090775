import type { ComponentType } from 'react';
import { createBrowserRouter, isRouteErrorResponse, Navigate, useRouteError, type RouteObject } from 'react-router-dom';
import { Banner } from '../components/banner.js';
import { Button } from '../components/button.js';
import { Card } from '../components/card.js';
import { ProtectedRoute, RoleRoute, RootLayout } from './route-guards.js';
import { AREA_ROLES } from './role-home.js';

/*
 * Each area is loaded on demand, so the first screen only downloads what it shows.
 * The build puts everything under features/<area>/ into one chunk per area
 * (see web/vite.config.ts):
 *   auth      /login, /register, /verify-mfa, /update-password, /force-password-change
 *   shell     the dashboard frame: sidebar, top bar, user menu
 *   customer  /dashboard/overview ... /dashboard/marketplace/...
 *   staff     /dashboard/worker, /dashboard/manager, /dashboard/admin, /dashboard/user-profile/:userId
 *   errors    the 404 page
 */

const auth = () => import('../features/auth/login-page.js');
const customer = () => import('../features/customer/customer-screens.js');
const staff = () => import('../features/staff/staff-screens.js');

function customerScreen(path: string, pick: (m: Awaited<ReturnType<typeof customer>>) => ComponentType): RouteObject {
  return { path, lazy: async () => ({ Component: pick(await customer()) }) };
}

function staffScreen(path: string, pick: (m: Awaited<ReturnType<typeof staff>>) => ComponentType): RouteObject {
  return { path, lazy: async () => ({ Component: pick(await staff()) }) };
}

const profile = () => import('../features/staff/profile/profile-tabs.js');
function profileTab(path: string, pick: (m: Awaited<ReturnType<typeof profile>>) => ComponentType): RouteObject {
  return { path, lazy: async () => ({ Component: pick(await profile()) }) };
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
        lazy: async () => ({ Component: (await staff()).WorkerDashboardPage }),
        children: [
          { index: true, element: <Navigate to="search-user" replace /> },
          staffScreen('search-user', (m) => m.SearchUserTab),
          staffScreen('my-users', (m) => m.MyUsersTab),
          { path: 'support-tickets', lazy: async () => ({ Component: (await import('../features/staff/tickets/worker-tickets-tab.js')).WorkerTicketsTab }) },
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
        lazy: async () => ({ Component: (await staff()).ManagerDashboardPage }),
        children: [
          { index: true, element: <Navigate to="my-workers" replace /> },
          staffScreen('my-workers', (m) => m.MyWorkersTab),
          staffScreen('create-worker', (m) => m.CreateWorkerTab),
          staffScreen('actions', (m) => m.ActionsTab),
          staffScreen('all-users', (m) => m.AllUsersTab),
          { path: 'unassigned-tickets', lazy: async () => ({ Component: (await import('../features/staff/manager/unassigned-tickets-tab.js')).UnassignedTicketsTab }) },
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
        lazy: async () => ({ Component: (await staff()).AdminDashboardPage }),
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
        lazy: async () => ({ Component: (await staff()).UserProfilePage }),
        children: [
          { index: true, element: <Navigate to="general" replace /> },
          profileTab('general', (m) => m.GeneralTab),
          profileTab('wallets', (m) => m.WalletsTab),
          profileTab('transactions', (m) => m.TransactionsTab),
          { path: 'verification', lazy: async () => ({ Component: (await import('../features/staff/profile/verification-tab.js')).VerificationTab }) },
          profileTab('payment-management', (m) => m.PaymentManagementTab),
          profileTab('events', (m) => m.EventTrailTab),
        ],
      },
    ],
  },
  { path: '*', element: <Navigate to="/dashboard/overview" replace /> },
];

export const router = createBrowserRouter([
  {
    id: 'root',
    Component: RootLayout,
    hydrateFallbackElement: <PageLoading />,
    errorElement: <RouteErrorPage />,
    children: [
      { index: true, element: <Navigate to="/login" replace /> },
      { path: 'login', lazy: async () => ({ Component: (await auth()).LoginPage }) },
      { path: 'verify-mfa', lazy: async () => ({ Component: (await auth()).VerifyMfaPage }) },
      {
        path: 'register',
        lazy: async () => ({ Component: (await import('../features/auth/register-page.js')).RegisterPage }),
      },
      {
        path: 'update-password',
        lazy: async () => ({ Component: (await import('../features/auth/update-password-page.js')).UpdatePasswordPage }),
      },
      {
        path: 'force-password-change',
        lazy: async () => ({
          Component: (await import('../features/auth/force-password-change-page.js')).ForcePasswordChangePage,
        }),
      },
      {
        path: 'dashboard',
        Component: ProtectedRoute,
        children: [
          {
            lazy: async () => ({ Component: (await import('../features/shell/dashboard-layout.js')).DashboardLayout }),
            children: dashboardRoutes,
          },
        ],
      },
      {
        path: '*',
        lazy: async () => ({ Component: (await import('../features/errors/not-found-page.js')).NotFoundPage }),
      },
    ],
  },
]);

function PageLoading() {
  return (
    <div className="page-loading" role="status" aria-live="polite">
      Loading...
    </div>
  );
}

/** Shown when a route fails to load or render, e.g. a chunk lost after a new deploy. */
function RouteErrorPage() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'An unexpected error occurred. Please try again later.';

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
