import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { QueryProvider } from '@/lib/query.js';
import { useSession } from '@/lib/session.js';
import { NotificationBell } from './components/notification-bell.js';
import { Sidebar } from './components/sidebar.js';
import { UserMenu } from './components/user-menu.js';
import { icons } from './components/icons.js';
import { useMediaQuery } from './hooks/use-media-query.js';

/** The spec's mobile breakpoint: under 768 px the sidebar becomes a drawer. */
const DRAWER_QUERY = '(max-width: 767.98px)';
const SIDEBAR_ID = 'dashboard-sidebar';

/** The dashboard shell (spec 2.6): sidebar, top bar with the bell and the user menu, the screen. */
export function DashboardLayout() {
  // The signed-in screens' one data cache (lib/query.tsx).
  return (
    <QueryProvider>
      <DashboardFrame />
    </QueryProvider>
  );
}

function DashboardFrame() {
  const role = useSession((s) => s.role);
  const isDrawer = useMediaQuery(DRAWER_QUERY);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const mainRef = useRef<HTMLElement>(null);
  const { pathname } = useLocation();

  useEffect(() => {
    if (!isDrawer) setDrawerOpen(false);
  }, [isDrawer]);

  // The drawer takes focus when it opens, so the keyboard lands among its links. While it
  // slides in, Chromium may refuse focus to it (measured: a few hundred ms on a busy machine),
  // so focus is tried again when the slide ends and after a while, unless it is already inside.
  useEffect(() => {
    if (!isDrawer || !drawerOpen) return;
    const aside = document.getElementById(SIDEBAR_ID);
    if (!aside) return;
    let timers: number[] = [];
    const stop = () => {
      aside.removeEventListener('transitionend', focusFirst);
      for (const t of timers) window.clearTimeout(t);
    };
    // Once focus is inside (put there or by the user), no later try moves it.
    function focusFirst() {
      if (!aside!.contains(document.activeElement)) aside!.querySelector<HTMLElement>('.sidebar__link')?.focus();
      if (aside!.contains(document.activeElement)) stop();
    }
    aside.addEventListener('transitionend', focusFirst);
    timers = [300, 800].map((ms) => window.setTimeout(focusFirst, ms));
    focusFirst();
    return stop;
  }, [isDrawer, drawerOpen]);

  // Escape closes the open drawer wherever focus is (the page behind it is inert meanwhile).
  useLayoutEffect(() => {
    if (!isDrawer || !drawerOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      closeDrawer(true);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [isDrawer, drawerOpen]);

  // A new screen: move focus to it, so the keyboard does not stay in the navigation.
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    mainRef.current?.focus({ preventScroll: true });
    window.scrollTo({ top: 0 });
  }, [pathname]);

  // Focus can go back to the menu button only once the page behind the drawer is no longer inert.
  const focusMenuButton = useRef(false);
  useEffect(() => {
    if (drawerOpen || !focusMenuButton.current) return;
    focusMenuButton.current = false;
    menuButtonRef.current?.focus();
  }, [drawerOpen]);

  const closeDrawer = (returnFocus: boolean) => {
    focusMenuButton.current = returnFocus;
    setDrawerOpen(false);
  };

  return (
    <div className={`shell${isDrawer ? ' shell--drawer' : ''}`}>
      <a className="skip-link" href="#dashboard-main">
        Skip to content
      </a>
      <Sidebar
        id={SIDEBAR_ID}
        role={role}
        isDrawer={isDrawer}
        open={drawerOpen}
        onClose={() => closeDrawer(true)}
        onNavigate={() => {
          if (isDrawer) closeDrawer(false);
        }}
      />
      {isDrawer && drawerOpen && <div className="shell__scrim" aria-hidden="true" onClick={() => closeDrawer(true)} />}
      <div className="shell__main" inert={isDrawer && drawerOpen}>
        <header className="top-bar">
          {isDrawer && (
            <button
              ref={menuButtonRef}
              type="button"
              className="icon-button top-bar__icon"
              aria-label="Open navigation menu"
              aria-expanded={drawerOpen}
              aria-controls={SIDEBAR_ID}
              onClick={() => setDrawerOpen(true)}
            >
              {icons.menu}
            </button>
          )}
          {isDrawer && (
            <span className="top-bar__brand" aria-hidden="true">
              wallet-ledger
            </span>
          )}
          <span className="top-bar__spacer" />
          <NotificationBell />
          <UserMenu />
        </header>
        <main id="dashboard-main" ref={mainRef} className="shell__content" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}
