import type { Kysely } from 'kysely';
import type { DB } from '../server/db/schema.js';
import type { EventStore, Position } from '../ledger/event-store/port.js';
import { balancesProjection } from './balances.js';
import { transactionsProjection } from './transactions.js';
import { usersProjection } from './users.js';
import { notificationsProjection } from './notifications.js';
import { paymentMethodsProjection } from './payment-methods.js';
import { scheduledTransactionsProjection } from './scheduled-transactions.js';
import { journalProjection } from './journal.js';
import { buyingLinksProjection } from './buying-links.js';
import { announcementsProjection } from './announcements.js';
import { ticketsProjection } from './tickets.js';
import type { Projection } from './projection.js';
import { ProjectionRunner, type RunnerOptions } from './runner.js';

/** Every read model, in the order they are replayed. */
export const PROJECTIONS: Projection[] = [balancesProjection, transactionsProjection, usersProjection, paymentMethodsProjection, notificationsProjection, scheduledTransactionsProjection, journalProjection, buyingLinksProjection, announcementsProjection, ticketsProjection];

export function findProjection(name: string): Projection | undefined {
  return PROJECTIONS.find((p) => p.name === name);
}

/** The live runners of a process, and read-your-writes over all of them. */
export class Projector {
  readonly runners: ProjectionRunner[];
  constructor(db: Kysely<DB>, store: EventStore, projections: Projection[] = PROJECTIONS, options: RunnerOptions = {}) {
    this.runners = projections.map((p) => new ProjectionRunner(db, store, p, options));
  }
  async start(): Promise<void> {
    for (const r of this.runners) await r.start();
  }
  async stop(): Promise<void> {
    await Promise.all(this.runners.map((r) => r.stop()));
  }
  /** True once every read model shows `position`; false if that took longer than `timeoutMs`. */
  async waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    const results = await Promise.all(this.runners.map((r) => r.waitFor(position, timeoutMs)));
    return results.every(Boolean);
  }
}
