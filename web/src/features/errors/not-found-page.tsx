import { Link, useNavigate } from 'react-router-dom';
import { Button, buttonClassName } from '@/components/button.js';
import { Card } from '@/components/card.js';
import { ParticleBackground } from '@/components/particle-background.js';
import { useSession } from '@/lib/session.js';

/** React Router numbers the entries it pushes; 0 means this page opened the tab's history. */
function hasPreviousEntry(): boolean {
  const state: unknown = window.history.state;
  return typeof state === 'object' && state !== null && typeof (state as { idx?: unknown }).idx === 'number'
    ? (state as { idx: number }).idx > 0
    : false;
}

export function NotFoundPage() {
  const navigate = useNavigate();
  const signedIn = useSession((s) => s.session !== null);
  const home = signedIn ? '/dashboard/overview' : '/login';

  const goBack = () => {
    if (hasPreviousEntry()) {
      void navigate(-1);
    } else {
      void navigate(home, { replace: true });
    }
  };

  return (
    <main className="page page--centered">
      <title>Page not found · wallet-ledger</title>
      <ParticleBackground />
      <Card className="card--narrow not-found" aria-labelledby="not-found-title">
        <p className="not-found__code" aria-hidden="true">
          404
        </p>
        <h1 id="not-found-title" className="card__title">
          Oops! Page Not Found
        </h1>
        <p className="card__subtitle">The page you are looking for does not exist or has moved.</p>
        <div className="actions">
          <Button variant="secondary" onClick={goBack}>
            Go Back
          </Button>
          <Link to={home} className={buttonClassName('primary')}>
            {signedIn ? 'Go to Dashboard' : 'Go to Login'}
          </Link>
        </div>
      </Card>
    </main>
  );
}
