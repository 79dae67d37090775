import type { WebSocket } from 'ws';
import { REALTIME_CLOSE, type Topic, type TopicPayload } from '../../ledger/contract/realtime.js';

export type { Topic };

/** What authorised a socket: its user, the session of its access token, and when that token expires. */
export interface SocketAuth {
  userId: string;
  sessionId: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

interface Entry extends SocketAuth {
  expiry: ReturnType<typeof setTimeout>;
}

/**
 * Who is connected, and what reaches them: a user's own topics, and the public ones. A socket
 * lives only as long as what authorised it: it is closed (4401) when its token expires, and
 * when its session ends (`endSessions`, `endUser`).
 */
export class RealtimeHub {
  private readonly byUser = new Map<string, Set<WebSocket>>();
  private readonly all = new Map<WebSocket, Entry>();

  add(socket: WebSocket, auth: SocketAuth): void {
    const expiry = setTimeout(() => this.end(socket, 'token expired'), Math.max(0, auth.expiresAt - Date.now()));
    expiry.unref?.();
    this.all.set(socket, { ...auth, expiry });
    let set = this.byUser.get(auth.userId);
    if (!set) this.byUser.set(auth.userId, (set = new Set()));
    set.add(socket);
  }

  remove(socket: WebSocket): void {
    const entry = this.all.get(socket);
    if (!entry) return;
    clearTimeout(entry.expiry);
    this.all.delete(socket);
    const set = this.byUser.get(entry.userId);
    set?.delete(socket);
    if (set?.size === 0) this.byUser.delete(entry.userId);
  }

  /** To one user's sockets only. */
  publish<T extends Topic>(userId: string, topic: T, payload: TopicPayload<T>): void {
    const set = this.byUser.get(userId);
    if (!set) return;
    const message = JSON.stringify({ type: 'event', topic, payload });
    for (const socket of set) send(socket, message);
  }

  /** To everyone connected (public data such as prices). */
  broadcast<T extends Topic>(topic: T, payload: TopicPayload<T>): void {
    const message = JSON.stringify({ type: 'event', topic, payload });
    for (const socket of this.all.keys()) send(socket, message);
  }

  get connections(): number {
    return this.all.size;
  }

  /** The sessions that open sockets stand on (each once). */
  sessionIds(): string[] {
    return [...new Set([...this.all.values()].map((e) => e.sessionId))];
  }

  /** Closes the sockets of these sessions. */
  endSessions(sessionIds: Iterable<string>): void {
    const ended = new Set(sessionIds);
    if (ended.size === 0) return;
    for (const [socket, entry] of [...this.all]) if (ended.has(entry.sessionId)) this.end(socket, 'session ended');
  }

  /** Closes every socket of a user, or all but those of session `except`. */
  endUser(userId: string, except?: string): void {
    for (const socket of [...(this.byUser.get(userId) ?? [])])
      if (this.all.get(socket)?.sessionId !== except) this.end(socket, 'session ended');
  }

  closeAll(): void {
    for (const socket of [...this.all.keys()]) {
      this.remove(socket);
      socket.close(1001, 'server shutting down');
    }
  }

  /** Out of the hub at once (nothing more reaches it), then closed. */
  private end(socket: WebSocket, reason: string): void {
    this.remove(socket);
    socket.close(REALTIME_CLOSE.unauthorized, reason);
  }
}

function send(socket: WebSocket, message: string): void {
  if (socket.readyState === socket.OPEN) socket.send(message);
}
