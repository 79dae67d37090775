import { useEffect, useRef } from 'react';
import { create } from 'zustand';
import { pendingSecondFactor } from './auth-types.js';
import { getAccessToken, refreshSession, useSession } from './session.js';
import {
  isTopic,
  REALTIME_CLOSE,
  REALTIME_TIMING,
  ServerMessage,
  TOPIC_PAYLOADS,
  type Topic,
  type TopicPayload,
} from '@ledger/contract/realtime.js';

/*
 * The realtime connection (docs/api-money.md, "Realtime"): one WebSocket per tab to
 * /realtime/v1, open while someone is signed in. Screens listen to topics through
 * `subscribe` (or `useRealtime`); the connection itself is this module's business.
 */

/** The spec's timings (spec 000 section 9), from the realtime contract. */
export { REALTIME_TIMING };

/** After this many failed tries in a row, the screens say the live updates are broken. */
export const REALTIME_TROUBLE_AFTER_FAILURES = 3;
export const REALTIME_ERROR = 'Realtime connection error. Refresh may be needed.';

/** Our own close when a heartbeat went unanswered. */
const CLOSE_NO_ANSWER = 4000;

export type { Topic };
export type RealtimeHandler<T extends Topic = Topic> = (payload: TopicPayload<T>) => void;

export type RealtimeStatus = {
  /** off: nobody signed in; connecting: first try; open: ready; retrying: down, a reconnect is planned or under way. */
  state: 'off' | 'connecting' | 'open' | 'retrying';
  /** Tries in a row that did not get as far as the server's 'ready'. */
  failures: number;
};

export const useRealtimeStatus = create<RealtimeStatus>(() => ({ state: 'off', failures: 0 }));

// --- topics --------------------------------------------------------------------------

const handlers = new Map<Topic, Set<(payload: unknown) => void>>();

/** Calls `handler` with each event's payload on `topic`; returns the way to stop. */
export function subscribe<T extends Topic>(topic: T, handler: RealtimeHandler<T>): () => void {
  let set = handlers.get(topic);
  if (!set) handlers.set(topic, (set = new Set()));
  set.add(handler as (payload: unknown) => void);
  return () => {
    handlers.get(topic)?.delete(handler as (payload: unknown) => void);
  };
}

function dispatch(topic: Topic, payload: unknown): void {
  for (const handler of [...(handlers.get(topic) ?? [])]) {
    try {
      handler(payload);
    } catch (error) {
      // One screen's failing listener must not keep the event from the others.
      console.error(`A realtime '${topic}' listener failed`, error);
    }
  }
}

// --- the connection ------------------------------------------------------------------

type Connection = {
  /** Bumped whenever the current socket is given up: events of an older one are ignored. */
  generation: number;
  /** Whose connection this is; null when nobody is signed in. */
  userId: string | null;
  socket: WebSocket | null;
  /** Reconnects so far since the last 'ready'. */
  attempt: number;
  /** The token the server refused (4401): refreshed before the next try. */
  refusedToken: string | null;
  /** This user's connection was ready before: after a gap, missed events are made up for. */
  wasReady: boolean;
  reconnectTimer: number | undefined;
  heartbeatTimer: number | undefined;
  answerTimer: number | undefined;
};

const conn: Connection = {
  generation: 0,
  userId: null,
  socket: null,
  attempt: 0,
  refusedToken: null,
  wasReady: false,
  reconnectTimer: undefined,
  heartbeatTimer: undefined,
  answerTimer: undefined,
};

function setStatus(patch: Partial<RealtimeStatus>): void {
  useRealtimeStatus.setState(patch);
}

function clearTimers(): void {
  window.clearTimeout(conn.reconnectTimer);
  window.clearInterval(conn.heartbeatTimer);
  window.clearTimeout(conn.answerTimer);
  conn.reconnectTimer = undefined;
  conn.heartbeatTimer = undefined;
  conn.answerTimer = undefined;
}

/** Gives up the current socket (if any) without planning anything. */
function dropSocket(code: number, reason: string): void {
  conn.generation += 1;
  clearTimers();
  const socket = conn.socket;
  conn.socket = null;
  if (!socket) return;
  socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
  if (socket.readyState === WebSocket.CONNECTING || socket.readyState === WebSocket.OPEN) {
    try {
      socket.close(code, reason);
    } catch {
      // Already closing.
    }
  }
}

function socketUrl(token: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${window.location.host}/realtime/v1?token=${encodeURIComponent(token)}`;
}

/** The token for the next try; the refused one is swapped for a fresh one first. */
async function tokenForNextTry(): Promise<string | null> {
  const refused = conn.refusedToken;
  conn.refusedToken = null;
  if (refused && useSession.getState().session?.access_token === refused) await refreshSession();
  return getAccessToken();
}

async function connect(): Promise<void> {
  const generation = ++conn.generation;
  clearTimers();
  let token: string | null;
  try {
    token = await tokenForNextTry();
  } catch {
    token = null;
  }
  if (generation !== conn.generation || !conn.userId) return;
  if (!token) {
    // The session is gone or could not be refreshed: a sign-out stops everything anyway.
    onFailedTry(generation, false);
    return;
  }

  let socket: WebSocket;
  try {
    socket = new WebSocket(socketUrl(token));
  } catch {
    onFailedTry(generation, false);
    return;
  }
  conn.socket = socket;
  let ready = false;

  socket.onmessage = (event: MessageEvent) => {
    if (generation !== conn.generation) return;
    // Any word from the server answers the heartbeat.
    window.clearTimeout(conn.answerTimer);
    conn.answerTimer = undefined;
    let message: ServerMessage;
    try {
      message = ServerMessage.parse(JSON.parse(String(event.data)));
    } catch {
      return;
    }
    if (message.type === 'ready' && !ready) {
      ready = true;
      onReady(generation);
    } else if (message.type === 'event' && isTopic(message.topic)) {
      // An event whose payload is not the topic's (a newer server, say) reaches no screen.
      const payload = TOPIC_PAYLOADS[message.topic].safeParse(message.payload);
      if (payload.success) dispatch(message.topic, payload.data);
    }
  };
  socket.onclose = (event: CloseEvent) => {
    if (generation !== conn.generation) return;
    conn.socket = null;
    if (event.code === REALTIME_CLOSE.unauthorized) conn.refusedToken = token;
    onFailedTry(generation, ready);
  };
  // An error is always followed by a close, which decides what happens next.
  socket.onerror = () => undefined;
}

function onReady(generation: number): void {
  const reconnected = conn.wasReady;
  conn.wasReady = true;
  conn.attempt = 0;
  setStatus({ state: 'open', failures: 0 });
  conn.heartbeatTimer = window.setInterval(() => heartbeat(generation), REALTIME_TIMING.heartbeatMs);
  if (reconnected) {
    // Events sent while the socket was down are lost: the screens read their data again.
    dispatch('transactions', { changed: true });
    dispatch('notifications', { changed: true });
    dispatch('tickets', { changed: true });
    dispatch('announcements', { changed: true });
  }
}

function heartbeat(generation: number): void {
  const socket = conn.socket;
  if (generation !== conn.generation || !socket || socket.readyState !== WebSocket.OPEN) return;
  try {
    socket.send(JSON.stringify({ type: 'heartbeat' }));
  } catch {
    // A send that fails shows up as a close.
    return;
  }
  if (conn.answerTimer !== undefined) return;
  conn.answerTimer = window.setTimeout(() => {
    if (generation !== conn.generation) return;
    // No answer: the connection is dead even if the browser has not noticed yet.
    dropSocket(CLOSE_NO_ANSWER, 'no heartbeat answer');
    onFailedTry(conn.generation, true);
  }, REALTIME_TIMING.answerTimeoutMs);
}

/**
 * The socket closed (or never opened). A connection that had been ready just dropped; one
 * that never got there is a failed try. Either way the next try is planned.
 */
function onFailedTry(generation: number, hadBeenReady: boolean): void {
  if (generation !== conn.generation || !conn.userId) return;
  clearTimers();
  const { failures } = useRealtimeStatus.getState();
  setStatus({ state: 'retrying', failures: hadBeenReady ? 0 : failures + 1 });
  const delays = REALTIME_TIMING.reconnectDelaysMs;
  const delay = delays[Math.min(conn.attempt, delays.length - 1)]!;
  conn.attempt += 1;
  conn.reconnectTimer = window.setTimeout(() => void connect(), delay);
}

/** Stops for good (sign-out, another user). */
function stop(): void {
  dropSocket(1000, 'signed out');
  conn.userId = null;
  conn.attempt = 0;
  conn.refusedToken = null;
  conn.wasReady = false;
  setStatus({ state: 'off', failures: 0 });
}

/** Who should be connected now: a signed-in user past the second factor and any forced password change. */
function wantedUser(): string | null {
  const { status, session, requiresPasswordChange } = useSession.getState();
  if (status !== 'ready' || !session || requiresPasswordChange || pendingSecondFactor(session)) return null;
  return session.user.id;
}

function sync(): void {
  const userId = wantedUser();
  if (userId === conn.userId) return;
  stop();
  if (!userId) return;
  conn.userId = userId;
  setStatus({ state: 'connecting', failures: 0 });
  void connect();
}

/** A planned reconnect happens now rather than later (the tab is back, the network is back). */
function retryNow(): void {
  if (!conn.userId || useRealtimeStatus.getState().state !== 'retrying' || conn.reconnectTimer === undefined) return;
  void connect();
}

let started = false;

/** Follows the session: connects when someone signs in, closes on sign-out. Call once at start-up. */
export function startRealtime(): void {
  if (started || typeof WebSocket === 'undefined') return;
  started = true;
  useSession.subscribe(sync);
  window.addEventListener('online', retryNow);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') retryNow();
  });
  sync();
}

// --- React ---------------------------------------------------------------------------

/** Calls the latest `handler` on each event of `topic` while the component is mounted. */
export function useRealtime<T extends Topic>(topic: T, handler: RealtimeHandler<T>): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => subscribe(topic, (payload: TopicPayload<T>) => latest.current(payload)), [topic]);
}

/** True once the socket has been down for longer than the first reconnect steps. */
export function useRealtimeTrouble(): boolean {
  return useRealtimeStatus((s) => s.state === 'retrying' && s.failures >= REALTIME_TROUBLE_AFTER_FAILURES);
}
