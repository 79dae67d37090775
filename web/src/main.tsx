import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.js';
import { areaRedirect } from './app/role-home.js';
import { pendingSecondFactor } from './lib/auth-types.js';
import { startSession, useSession } from './lib/session.js';
import './styles/global.css';
import './styles/components.css';
import './styles/auth.css';
import './styles/shell.css';

const container = document.getElementById('root');
if (!container) {
  throw new Error('The page has no #root element to mount the app into.');
}

// Before the first render: the stored session decides where the first screen goes.
startSession();
readAheadForFirstScreen();
// The live connection follows the session: open while signed in, closed on sign-out. Its code
// loads with the first session, so the sign-in screen does not download it.
const stopWaiting = useSession.subscribe(startLiveOnceSignedIn);
startLiveOnceSignedIn(useSession.getState());

function startLiveOnceSignedIn(state: { session: unknown }): void {
  if (!state.session) return;
  stopWaiting?.();
  void import('./lib/realtime.js').then((m) => m.startRealtime());
}

/**
 * A signed-in customer opening the overview (or a staff screen, which sends them there): its
 * code and its four reads start now, beside the shell's code, rather than one after the other
 * once the shell has rendered.
 */
function readAheadForFirstScreen(): void {
  const { session, user, role, requiresPasswordChange } = useSession.getState();
  if (!session || !user || role !== 'USER' || requiresPasswordChange || pendingSecondFactor(session)) return;
  const landing = areaRedirect(window.location.pathname, role) ?? window.location.pathname;
  if (!/^\/dashboard(\/(overview\/?)?)?$/.test(landing)) return;
  void import('./features/customer/overview/read-ahead.js').then((m) => m.readOverviewAhead(user.id));
}

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
