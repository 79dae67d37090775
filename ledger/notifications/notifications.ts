import { z } from 'zod';
import type { Decider } from '../decider.js';
import { formatTransactionAmount } from '../display-amount.js';

/**
 * A customer's reading of their notifications: `notifications-{userId}`. The notifications
 * themselves are derived from wallet events (projections/notifications.ts); marking them
 * read is the customer's own act, so it is recorded here.
 */
export const notificationEventSchemas = {
  'notification.marked-read': { version: 1, schema: z.object({ notificationIds: z.array(z.uuid()).min(1).max(100) }) },
  'notification.all-marked-read': { version: 1, schema: z.object({ upTo: z.iso.datetime({ offset: true }) }) },
} as const;

export type NotificationEvent =
  | { type: 'notification.marked-read'; data: { notificationIds: string[] } }
  | { type: 'notification.all-marked-read'; data: { upTo: string } };

export type NotificationCommand = { type: 'MarkRead'; notificationIds: string[] } | { type: 'MarkAllRead'; upTo: string };

export const notificationsDecider: Decider<NotificationCommand, NotificationEvent, null> = {
  category: 'notifications',
  initialState: () => null,
  evolve: (state) => state,
  decide(command) {
    return command.type === 'MarkRead'
      ? [{ type: 'notification.marked-read', data: { notificationIds: command.notificationIds } }]
      : [{ type: 'notification.all-marked-read', data: { upTo: command.upTo } }];
  },
  schemas: notificationEventSchemas,
  // A customer's stream grows with every reading of the bell, and its state is nothing.
  snapshot: { version: 1, encode: () => null, decode: () => null },
};

/**
 * An amount as the bell shows it: the format module's transaction amount (ledger/display-amount.ts),
 * 2 to 8 decimals with thousands separators, no sign (the sentence tells the direction), as the
 * staff screens and the mails show it. Pure, so a replay writes the same text.
 */
export function noticeAmount(amount: string): string {
  return formatTransactionAmount(amount, { signed: false });
}

/** The text of the notification a settled or failed transaction gives its owner. */
export function settlementMessage(kind: string, outcome: 'Complete' | 'Failed', amount: string, assetId: string): string | null {
  const abs = noticeAmount(amount);
  const what = kind === 'deposit' ? 'deposit' : kind === 'withdrawal' ? 'withdrawal' : kind === 'send' ? 'transfer' : null;
  if (!what) return null;
  if (outcome === 'Complete')
    return kind === 'send' ? `Your transfer of ${abs} ${assetId} has been sent.` : `Your ${what} of ${abs} ${assetId} has been completed.`;
  return kind === 'send' ? `Your transfer of ${abs} ${assetId} was not approved.` : `Your ${what} of ${abs} ${assetId} has failed.`;
}
