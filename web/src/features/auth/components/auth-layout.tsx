import { lazy, Suspense, type ReactNode } from 'react';
import { Card } from '@/components/card.js';

// Decoration: its code loads after the form, so the sign-in screen's first download stays small.
const ParticleBackground = lazy(async () => ({ default: (await import('@/components/particle-background.js')).ParticleBackground }));

function Background() {
  return (
    <Suspense fallback={null}>
      <ParticleBackground />
    </Suspense>
  );
}

type AuthLayoutProps = {
  title: string;
  tagline?: ReactNode;
  /** The browser tab's title; defaults to the card's. */
  documentTitle?: string;
  children: ReactNode;
  /** The link switching between Sign In and Sign Up, under the form. */
  footer?: ReactNode;
};

export function BrandMark() {
  return (
    <div className="brand-mark" aria-hidden="true">
      <svg viewBox="0 0 24 24" width="26" height="26" fill="none" stroke="currentColor" strokeWidth="1.8">
        <path d="M4 7.5A2.5 2.5 0 0 1 6.5 5H18v3" strokeLinecap="round" strokeLinejoin="round" />
        <rect x="4" y="7.5" width="16" height="11.5" rx="2.5" />
        <circle cx="16" cy="13.25" r="1.25" fill="currentColor" stroke="none" />
      </svg>
    </div>
  );
}

/** The glass card every access screen sits in, over the particle background. */
export function AuthLayout({ title, tagline, documentTitle, children, footer }: AuthLayoutProps) {
  return (
    <main className="page page--centered auth-page">
      <title>{`${documentTitle ?? title} · wallet-ledger`}</title>
      <Background />
      <Card className="card--narrow auth-card" aria-labelledby="auth-title">
        <BrandMark />
        <h1 id="auth-title" className="card__title">
          {title}
        </h1>
        {tagline && <p className="card__subtitle auth-card__tagline">{tagline}</p>}
        <div className="auth-card__body">{children}</div>
        {footer && <p className="card__footnote auth-card__footer">{footer}</p>}
      </Card>
    </main>
  );
}

/** A full-page status line ('Initializing...', 'Loading Authentication...'). */
export function AuthStatus({ children }: { children: ReactNode }) {
  return (
    <main className="page page--centered auth-page">
      <Background />
      <p className="page-status" role="status" aria-live="polite">
        <span className="button__spinner" aria-hidden="true" />
        {children}
      </p>
    </main>
  );
}
