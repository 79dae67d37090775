import type { z } from 'zod';
import { formatPosition, type RecordedEvent } from './event-store/port.js';
import { walletEventSchemas } from './wallet/events.js';
import { userEventSchemas } from './user/events.js';
import { notificationEventSchemas } from './notifications/notifications.js';
import { paymentMethodEventSchemas } from './payment-methods/events.js';
import { buyingLinkEventSchemas } from './buying-links/buying-links.js';
import { announcementEventSchemas } from './announcements/announcements.js';
import { ticketEventSchemas } from './tickets/ticket.js';
import { booksEventSchemas } from './books/periods.js';
import { sealEventSchemas } from './audit/log-seal.js';

/** Every event type's current schema (the one an event has after upcasting), by type. */
export const EVENT_SCHEMAS: Readonly<Record<string, { version: number; schema: z.ZodType }>> = {
  ...walletEventSchemas,
  ...userEventSchemas,
  ...notificationEventSchemas,
  ...paymentMethodEventSchemas,
  ...buyingLinkEventSchemas,
  ...announcementEventSchemas,
  ...ticketEventSchemas,
  ...booksEventSchemas,
  ...sealEventSchemas,
};

/** An event read for a read model that does not match its schema: named by stream, revision and position. */
export class InvalidEventError extends Error {
  readonly streamId: string;
  readonly revision: bigint;
  readonly position: string;
  constructor(
    event: RecordedEvent,
    readonly problem: string,
  ) {
    super(
      `event ${event.streamId} revision ${event.revision} at position ${formatPosition(event.position)} (${event.type}, id ${event.eventId}) does not match its schema: ${problem}`,
    );
    this.name = 'InvalidEventError';
    this.streamId = event.streamId;
    this.revision = event.revision;
    this.position = formatPosition(event.position);
  }
}

/** Events already checked (a replay hands one page to several read models). */
const checked = new WeakSet<RecordedEvent>();

/**
 * Checks events read for a read model against their schema, after upcasting: the first that does
 * not match throws `InvalidEventError` naming it, before anything of its page is written. An
 * event of a type with no schema here is left to the read model.
 */
export function assertValidEvents(events: readonly RecordedEvent[]): void {
  for (const e of events) {
    if (checked.has(e)) continue;
    const def = EVENT_SCHEMAS[e.type];
    if (def) {
      if (e.version !== def.version)
        throw new InvalidEventError(e, `schema version ${e.version}, where the current one is ${def.version} and no upcaster reaches it`);
      const parsed = def.schema.safeParse(e.data);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const where = issue.path.length ? issue.path.join('.') : '(the data)';
        throw new InvalidEventError(
          e,
          `${where}: ${issue.message}${parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more)` : ''}`,
        );
      }
    }
    checked.add(e);
  }
}
