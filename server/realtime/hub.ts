import type { WebSocket } from 'ws';

export type Topic = 'transactions' | 'notifications' | 'prices' | 'announcements' | 'tickets';

/** Who is connected, and what reaches them: a user's own topics, and the public ones. */
export class RealtimeHub {
  private readonly byUser = new Map<string, Set<WebSocket>>();
  private readonly all = new Set<WebSocket>();

  add(userId: string, socket: WebSocket): void {
    this.all.add(socket);
    let set = this.byUser.get(userId);
    if (!set) this.byUser.set(userId, (set = new Set()));
    set.add(socket);
  }

  remove(userId: string, socket: WebSocket): void {
    this.all.delete(socket);
    const set = this.byUser.get(userId);
    set?.delete(socket);
    if (set?.size === 0) this.byUser.delete(userId);
  }

  /** To one user's sockets only. */
  publish(userId: string, topic: Topic, payload: unknown): void {
    const set = this.byUser.get(userId);
    if (!set) return;
    const message = JSON.stringify({ type: 'event', topic, payload });
    for (const socket of set) send(socket, message);
  }

  /** To everyone connected (public data such as prices). */
  broadcast(topic: Topic, payload: unknown): void {
    const message = JSON.stringify({ type: 'event', topic, payload });
    for (const socket of this.all) send(socket, message);
  }

  get connections(): number {
    return this.all.size;
  }

  closeAll(): void {
    for (const socket of this.all) socket.close(1001, 'server shutting down');
  }
}

function send(socket: WebSocket, message: string): void {
  if (socket.readyState === socket.OPEN) socket.send(message);
}
