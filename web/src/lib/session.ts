import { create } from 'zustand';
import { anonymous, ApiError, connectSession, getJson, postJson, withBearer } from './api-client.js';
import type { Role, Session, User } from './auth-types.js';
import {
  msLeft,
  parseSession,
  readStorage,
  readStoredSession,
  SESSION_STORAGE_KEY,
  sessionFrom,
  withExpiry,
  writeStorage,
} from './stored-session.js';

export { SESSION_STORAGE_KEY };

/*
 * The signed-in session: kept in localStorage, refreshed before it expires, shared by
 * every screen and by the API client. Shapes follow docs/api-auth.md.
 */

/** The spec's timings (section 9). */
export const SESSION_TIMING = {
  /** The automatic refresh looks at the session this often. */
  tickMs: 30_000,
  /** It refreshes when the session ends within this many ticks. */
  refreshThresholdTicks: 3,
  /** A session with less than this left counts as expired: refresh before using it. */
  expiryMarginMs: 90_000,
  /**
   * The app closed (every tab) longer than this before it is opened again starts signed out.
   * A reload, a typed URL or a link in a tab that already held the app is not a closing,
   * however slowly the next page starts.
   */
  reopenSignOutMs: 3_000,
  /** Failed refreshes are retried after 200 ms × 2^n ... */
  retryBaseMs: 200,
  /** ... for up to this long. */
  retryWindowMs: 30_000,
} as const;

const CLOSED_AT_KEY = 'wallet-ledger.closed-at';
/** Kept in the tab's own sessionStorage: the tab held the app before (a reload or a navigation). */
const TAB_KEY = 'wallet-ledger.tab';
const REFRESH_LOCK = 'wallet-ledger.refresh';

export type SessionState = {
  /** 'loading' until the stored session has been read (and refreshed if it had to be). */
  status: 'loading' | 'ready';
  session: Session | null;
  user: User | null;
  /** USER when the session names none; empty with no session. */
  role: Role | '';
  requiresPasswordChange: boolean;
};

const signedOut = { session: null, user: null, role: '', requiresPasswordChange: false } as const;

export const useSession = create<SessionState>(() => ({ status: 'loading', ...signedOut }));

// --- state changes -------------------------------------------------------------------

/** Counts sign-outs (here or in another tab), so a refresh under way at the time is not applied. */
let signOuts = 0;

function apply(session: Session | null, persist: boolean): void {
  if (persist) writeStorage(SESSION_STORAGE_KEY, session ? JSON.stringify(session) : null);
  if (!session) {
    signOuts += 1;
    useSession.setState({ ...signedOut });
    return;
  }
  useSession.setState({
    session,
    user: session.user,
    role: session.user.user_metadata.role,
    requiresPasswordChange: session.user.user_metadata.requires_password_change,
  });
}

/**
 * Keeps a session the server just handed out (sign-in, second factor, refresh). Only the
 * session's own fields are kept: an answer that carried more (a passed second step's recovery
 * codes, shown once) leaves the rest out of the browser's storage.
 */
export function setSession(answer: Session): void {
  const { access_token, refresh_token, expires_in, expires_at, token_type, user } = answer;
  apply(withExpiry({ access_token, refresh_token, expires_in, expires_at, token_type, user }), true);
}

/** Keeps a fresher copy of the signed-in user (GET or PUT /auth/v1/user). */
export function updateUser(user: User): void {
  const { session } = useSession.getState();
  if (!session || session.user.id !== user.id) return;
  apply({ ...session, user }, true);
}

/** Forgets the session on this device without telling the server. */
export function clearSession(): void {
  apply(null, true);
}

/** Ends this session on the server (scope local) and forgets it here. Never fails. */
export async function signOut(): Promise<void> {
  const token = useSession.getState().session?.access_token ?? readStoredSession()?.access_token;
  clearSession();
  if (!token) return;
  try {
    await postJson('auth/v1/logout?scope=local', undefined, withBearer(token, { timeout: 5_000 }));
  } catch {
    // Already ended or unreachable: either way it is gone from this device.
  }
}

// --- refresh -------------------------------------------------------------------------

function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === null || error.status === 429 || error.status >= 500;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => window.setTimeout(resolve, ms));
}

/** Swaps the refresh token for a new session, retrying while the server cannot be reached. */
async function exchangeRefreshToken(refreshToken: string): Promise<Session | null> {
  const startedAt = Date.now();
  const signOutsBefore = signOuts;
  for (let attempt = 0; ; attempt += 1) {
    try {
      const answer = await postJson<unknown>('auth/v1/token?grant_type=refresh_token', { refresh_token: refreshToken }, anonymous());
      const session = sessionFrom(answer);
      if (!session) throw new ApiError('The server sent no session.', 200, answer);
      if (signOuts !== signOutsBefore) {
        // Signed out meanwhile: the new session must not bring the user back.
        postJson('auth/v1/logout?scope=local', undefined, withBearer(session.access_token)).catch(() => undefined);
        return null;
      }
      setSession(session);
      return useSession.getState().session;
    } catch (error) {
      if (!isRetryable(error)) {
        // Spent, revoked or unknown: this session is over.
        if (signOuts === signOutsBefore) clearSession();
        return null;
      }
      const wait = SESSION_TIMING.retryBaseMs * 2 ** attempt;
      if (Date.now() + wait - startedAt >= SESSION_TIMING.retryWindowMs) return null;
      await sleep(wait);
    }
  }
}

async function refreshUnderLock(): Promise<Session | null> {
  const current = useSession.getState().session;
  const stored = readStoredSession();
  if (!stored) {
    // With working storage, nothing stored means another tab signed out; without it,
    // only this tab's memory holds the session.
    if (storageWorks()) {
      if (current) apply(null, false);
      return null;
    }
    return current ? exchangeRefreshToken(current.refresh_token) : null;
  }
  // Another tab refreshed first: its session is the live one, and our refresh token is spent.
  if (current && stored.refresh_token !== current.refresh_token && msLeft(stored) > SESSION_TIMING.expiryMarginMs) {
    apply(stored, false);
    return stored;
  }
  return exchangeRefreshToken(stored.refresh_token);
}

function storageWorks(): boolean {
  try {
    const probe = `${SESSION_STORAGE_KEY}.probe`;
    window.localStorage.setItem(probe, '1');
    window.localStorage.removeItem(probe);
    return true;
  } catch {
    return false;
  }
}

let refreshInFlight: Promise<Session | null> | null = null;

/**
 * Refreshes the session. One refresh at a time, shared by every caller in this tab and
 * serialised across tabs: reusing a spent refresh token makes the server revoke the session.
 */
export function refreshSession(): Promise<Session | null> {
  if (!refreshInFlight) {
    const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
    const run: Promise<Session | null> = locks
      ? // The lock resolves with the callback's result (the DOM typings wrap it once more).
        (locks.request(REFRESH_LOCK, refreshUnderLock) as unknown as Promise<Session | null>)
      : refreshUnderLock();
    const shared = run.finally(() => {
      refreshInFlight = null;
    });
    refreshInFlight = shared;
    return shared;
  }
  return refreshInFlight;
}

/** The access token for the next call; refreshed first when under the expiry margin. */
export async function getAccessToken(): Promise<string | null> {
  const { session } = useSession.getState();
  if (!session) return null;
  if (msLeft(session) >= SESSION_TIMING.expiryMarginMs) return session.access_token;
  const refreshed = await refreshSession();
  return refreshed?.access_token ?? useSession.getState().session?.access_token ?? null;
}

async function renewAfterUnauthorized(staleToken: string): Promise<string | null> {
  const { session } = useSession.getState();
  if (!session) return null;
  // Someone already replaced the refused token: use theirs rather than refreshing again.
  if (session.access_token !== staleToken) return session.access_token;
  const refreshed = await refreshSession();
  return refreshed?.access_token ?? null;
}

function tick(): void {
  const { session } = useSession.getState();
  if (!session) return;
  const ticksLeft = Math.floor(msLeft(session) / SESSION_TIMING.tickMs);
  if (ticksLeft <= SESSION_TIMING.refreshThresholdTicks) void refreshSession();
}

// --- the signed-in user --------------------------------------------------------------

/** Reads the signed-in user from the server and keeps the fresher copy. */
export async function fetchCurrentUser(): Promise<User> {
  const user = await getJson<User>('auth/v1/user');
  updateUser(user);
  return user;
}

// --- start-up ------------------------------------------------------------------------

let started = false;

function closedTooLongAgo(): boolean {
  const closedAt = Number(readStorage(CLOSED_AT_KEY));
  writeStorage(CLOSED_AT_KEY, null);
  return Number.isFinite(closedAt) && closedAt > 0 && Date.now() - closedAt > SESSION_TIMING.reopenSignOutMs;
}

/**
 * Whether this page continues a tab that already held the app: a reload, a typed URL or a link
 * (its sessionStorage survives those and is gone when the tab is closed). A page the browser
 * brings back through history (`back_forward`, also how a closed browser restores its tabs) is
 * judged by the time it was away instead.
 */
function continuesThisTab(): boolean {
  let before: boolean;
  try {
    before = window.sessionStorage.getItem(TAB_KEY) !== null;
    window.sessionStorage.setItem(TAB_KEY, '1');
  } catch {
    return false;
  }
  const [entry] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  return before && entry?.type !== 'back_forward';
}

async function restore(): Promise<void> {
  const sameTab = continuesThisTab();
  const reopenedLate = closedTooLongAgo() && !sameTab;
  const stored = readStoredSession();
  if (!stored) {
    apply(null, false);
    return;
  }
  if (reopenedLate) {
    apply(stored, false);
    await signOut();
    return;
  }
  apply(stored, false);
  if (msLeft(stored) < SESSION_TIMING.expiryMarginMs) await refreshSession();
}

/**
 * Reads the stored session, signs out when the page was closed too long, and starts the
 * automatic refresh. Call once before rendering.
 */
export function startSession(): void {
  if (started) return;
  started = true;

  connectSession({ accessToken: getAccessToken, renewAfterUnauthorized });

  let hidden = false;
  window.addEventListener('pagehide', () => {
    hidden = true;
    writeStorage(CLOSED_AT_KEY, String(Date.now()));
  });
  window.addEventListener('pageshow', (event) => {
    hidden = false;
    // Back from the back/forward cache: the tab never closed, it only went elsewhere for a while.
    if (event.persisted) writeStorage(CLOSED_AT_KEY, null);
  });
  window.addEventListener('storage', (event) => {
    if (event.key === SESSION_STORAGE_KEY) {
      apply(parseSession(event.newValue), false);
    } else if (event.key === CLOSED_AT_KEY && event.newValue && !hidden && readStorage(CLOSED_AT_KEY) === event.newValue) {
      // Another tab closed while this one stays open: the app as a whole was not closed. A tab
      // that is closing itself, or a mark newer than the event (this tab's own), is left alone:
      // the notice of an earlier close can arrive after this tab's own pagehide.
      writeStorage(CLOSED_AT_KEY, null);
    }
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') tick();
  });
  window.setInterval(tick, SESSION_TIMING.tickMs);

  void restore().finally(() => {
    // Whatever happened, the app must leave its loading state.
    useSession.setState({ status: 'ready' });
    tick();
  });
}
