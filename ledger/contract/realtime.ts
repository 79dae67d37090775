import { z } from 'zod';
import { AssetPrice } from './prices.js';

/*
 * The realtime connection, `/realtime/v1?token=<access token>` (spec 000 section 9; one
 * WebSocket per tab): the messages each side sends, the topics and their payloads, the close
 * codes and the timings. The server's hub (server/realtime/) sends through these types, the
 * client (web/src/lib/realtime.ts) reads with these schemas, and docs/api-money.md
 * ("Realtime") describes them.
 */

/** Sent to that user only, once the read tables show the change: the screen reads again. */
const Changed = z.object({ changed: z.literal(true) });

/** What each topic's events carry. */
export const TOPIC_PAYLOADS = {
  /** The customer's transactions changed (any of them). */
  transactions: Changed,
  /** The customer's notifications changed. */
  notifications: Changed,
  /** The price map, to everyone, whenever the cache refreshes it (every 60 s). */
  prices: z.record(z.string(), AssetPrice),
  /** An announcement was sent to a manager's workers (to them and to the manager). */
  announcements: Changed.extend({ managerId: z.string().nullable() }),
  /** A ticket changed: to its customer and its assigned worker. */
  tickets: z.object({ ticketId: z.string(), status: z.string() }),
  /** The approval requests a staff member may act on changed. */
  approvals: Changed,
} as const;

export type Topic = keyof typeof TOPIC_PAYLOADS;
export type TopicPayload<T extends Topic> = z.infer<(typeof TOPIC_PAYLOADS)[T]>;
export const TOPICS = Object.keys(TOPIC_PAYLOADS) as Topic[];

export function isTopic(value: unknown): value is Topic {
  return typeof value === 'string' && Object.hasOwn(TOPIC_PAYLOADS, value);
}

/**
 * Server to client: `ready` once the token is accepted, `heartbeat` answering the client's,
 * and `event` on a topic. A client reads an event's payload with `TOPIC_PAYLOADS[topic]`.
 */
export const ServerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('heartbeat') }),
  z.object({ type: z.literal('event'), topic: z.string(), payload: z.unknown() }),
]);
export type ServerMessage = z.infer<typeof ServerMessage>;

/** Client to server: only the heartbeat; anything else is ignored. */
export const ClientMessage = z.object({ type: z.literal('heartbeat') });

/** How the server closes a socket. */
export const REALTIME_CLOSE = {
  /** The token is missing, bad or expired, or its session ended: sign in again or refresh, then reconnect. */
  unauthorized: 4401,
  /** Nothing heard from the client for `idleMs`. */
  idle: 4408,
  /** The server failed on this socket. */
  serverError: 1011,
} as const;

/** The spec's timings (spec 000 section 9) and the server's patience. */
export const REALTIME_TIMING = {
  /** A heartbeat goes out this often ... */
  heartbeatMs: 30_000,
  /** ... and a connection that has not answered within this long is taken for dead. */
  answerTimeoutMs: 10_000,
  /** Waits before the 1st, 2nd, 3rd and 4th reconnect; the last one repeats from then on. */
  reconnectDelaysMs: [1_000, 2_000, 5_000, 10_000],
  /** The server closes a socket silent for this long (4408). */
  idleMs: 45_000,
} as const;
