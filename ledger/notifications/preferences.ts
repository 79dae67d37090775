import { z } from 'zod';

/*
 * A customer's choices of the notifications they get (Settings > Notifications). Only what the
 * app sends can be chosen: the transaction updates (a deposit, withdrawal or send that completes
 * or fails, money received) in the app and by e-mail, and the notice of a change staff make to
 * the account's permissions, by e-mail and in the app. Security notices (a new sign-in, a password or second-factor change, a
 * staff password reset, a suspension, a new deposit address) cannot be turned off.
 */
export const NotificationPreferences = z.strictObject({
  /** The bell's item when a deposit, withdrawal or send completes or fails. */
  transactionsInApp: z.boolean(),
  /** The e-mail when money is received, or a deposit, withdrawal or send completes or fails (off until chosen). */
  transactionsEmail: z.boolean(),
  /** The e-mail when staff change what the account may do. */
  accountChangesEmail: z.boolean(),
  /** The bell's item when staff change what the account may do. */
  accountChangesInApp: z.boolean(),
});
export type NotificationPreferences = z.infer<typeof NotificationPreferences>;

/**
 * Everything on until the customer chooses otherwise, except the transaction e-mails: those are
 * sent only to a customer who turned them on (a choice recorded before they existed reads as off).
 */
export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = Object.freeze({
  transactionsInApp: true,
  transactionsEmail: false,
  accountChangesEmail: true,
  accountChangesInApp: true,
});

/** The staff-notice event types that are account changes a customer may mute; every other notice is security. */
const ACCOUNT_CHANGE_TYPES = new Set(['user.permissions-updated']);

/** Whether the notice of this staff event may be muted (false: a security notice, always sent). */
export const isAccountChangeNotice = (eventType: string) => ACCOUNT_CHANGE_TYPES.has(eventType);

/** Whether `prefs` (none recorded: the defaults) let a staff notice of `eventType` through on `channel`. */
export function staffNoticeWanted(
  eventType: string,
  channel: 'email' | 'inApp',
  prefs: NotificationPreferences | null | undefined,
): boolean {
  if (!isAccountChangeNotice(eventType)) return true;
  const p = prefs ?? DEFAULT_NOTIFICATION_PREFERENCES;
  return channel === 'email' ? p.accountChangesEmail : p.accountChangesInApp;
}
