import { useCallback, useEffect, useRef, useState } from 'react';
import { Button } from '../../components/button.js';
import { Card } from '../../components/card.js';
import { ParticleBackground } from '../../components/particle-background.js';
import { getServiceHealth, type ServiceHealth } from './api/get-service-health.js';

const REFRESH_EVERY_MS = 15_000;

/** Reads /healthz now and then, and on demand. */
function useServiceHealth() {
  const [health, setHealth] = useState<ServiceHealth | null>(null);
  const [checking, setChecking] = useState(true);
  const inFlight = useRef<AbortController | null>(null);

  const check = useCallback(async () => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setChecking(true);
    try {
      const result = await getServiceHealth(controller.signal);
      if (!controller.signal.aborted) setHealth(result);
    } catch {
      // Aborted: a newer check or the page closing took over.
    } finally {
      if (inFlight.current === controller) setChecking(false);
    }
  }, []);

  useEffect(() => {
    void check();
    const timer = window.setInterval(() => void check(), REFRESH_EVERY_MS);
    return () => {
      window.clearInterval(timer);
      inFlight.current?.abort();
    };
  }, [check]);

  return { health, checking, check };
}

export function HomePage() {
  const { health, checking, check } = useServiceHealth();
  const state = health?.state ?? 'checking';
  const body = health?.body ?? null;
  const projections = body?.projections ?? [];

  return (
    <main className="page page--centered">
      <title>wallet-ledger</title>
      <ParticleBackground />
      <Card className="card--narrow home" aria-labelledby="home-title">
        <div className="brand-mark" aria-hidden="true">
          <svg viewBox="0 0 24 24" width="26" height="26" fill="none" stroke="currentColor" strokeWidth="1.8">
            <path d="M4 7.5A2.5 2.5 0 0 1 6.5 5H18v3" strokeLinecap="round" strokeLinejoin="round" />
            <rect x="4" y="7.5" width="16" height="11.5" rx="2.5" />
            <circle cx="16" cy="13.25" r="1.25" fill="currentColor" stroke="none" />
          </svg>
        </div>
        <h1 id="home-title" className="card__title">
          wallet-ledger
        </h1>
        <p className="card__subtitle">A custodial crypto wallet on an event-sourced ledger.</p>

        <section className="status" aria-labelledby="status-headline">
          <p id="status-headline" className="status__headline" aria-live="polite">
            <span className={`status-dot status-dot--${state}`} aria-hidden="true" />
            Service status: {state === 'checking' ? 'checking...' : state}
          </p>

          {body ? (
            <dl className="status__details">
              <div className="status__row">
                <dt>Database</dt>
                <dd>
                  {body.database ? (
                    <>
                      {body.database.kind}{' '}
                      <span className={body.database.ok ? 'text-ok' : 'text-danger'}>
                        ({body.database.ok ? 'ok' : 'failing'})
                      </span>
                    </>
                  ) : (
                    'not reported'
                  )}
                </dd>
              </div>
              <div className="status__row">
                <dt>Event store</dt>
                <dd>{body.eventStore ?? 'not reported'}</dd>
              </div>
              <div className="status__row">
                <dt>Projection lag</dt>
                <dd>
                  {projections.length === 0 ? (
                    'none reported'
                  ) : (
                    <ul className="status__projections">
                      {projections.map((projection) => (
                        <li key={projection.name}>
                          {projection.name}: {projection.lag} {projection.lag === 1 ? 'event' : 'events'} behind
                        </li>
                      ))}
                    </ul>
                  )}
                </dd>
              </div>
            </dl>
          ) : (
            state === 'unreachable' && <p className="status__note">The server did not answer the health check.</p>
          )}

          <div className="status__footer">
            <span className="status__checked">
              {health ? `Checked at ${health.checkedAt.toLocaleTimeString()}` : 'Checking the service...'}
            </span>
            <Button variant="secondary" loading={checking} loadingText="Checking..." onClick={() => void check()}>
              Check again
            </Button>
          </div>
        </section>

        <p className="card__footnote">
          <a href="/docs">API reference</a>
        </p>
      </Card>
    </main>
  );
}
