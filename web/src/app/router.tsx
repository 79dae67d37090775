import { createBrowserRouter, isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { Banner } from '../components/banner.js';
import { Button } from '../components/button.js';
import { Card } from '../components/card.js';

/*
 * Each area is loaded on demand, so the first screen only downloads what it shows.
 * The build puts everything under features/<area>/ into one chunk per area
 * (see web/vite.config.ts). Areas still to come:
 *   auth      /login, /register, /verify-mfa, /update-password, /force-password-change
 *   customer  /dashboard/overview ... /dashboard/marketplace/...
 *   staff     /dashboard/worker, /dashboard/manager, /dashboard/admin, /dashboard/user-profile/:userId
 */
export const router = createBrowserRouter([
  {
    id: 'root',
    hydrateFallbackElement: <PageLoading />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        index: true,
        lazy: async () => {
          const { HomePage } = await import('../features/home/home-page.js');
          return { Component: HomePage };
        },
      },
      {
        path: '*',
        lazy: async () => {
          const { NotFoundPage } = await import('../features/errors/not-found-page.js');
          return { Component: NotFoundPage };
        },
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
