import { money } from '../money.js';
import { noticeAmount } from './notifications.js';

/** Spec 001 section 9: 10 stored, received items of the last 7 days (at most 20), 15 shown. */
export const FEED_RULES = { stored: 10, receivedDays: 7, receivedMax: 20, shown: 15 } as const;

export interface StoredNotification {
  id: string;
  message: string;
  read: boolean;
  created_at: string;
  transaction_id: string | null;
}

export interface ReceivedCandidate {
  id: string;
  amount: string;
  asset_id: string;
  created_at: string;
  /** The transaction's kind ('deposit', 'send', …) and status: only money that arrived is 'received'. */
  type: string;
  status: 'Pending' | 'Complete' | 'Failed';
}

export interface FeedItem extends StoredNotification {
  /** 'stored' can be marked read; 'received' items are derived and always read. */
  source: 'stored' | 'received';
}

/**
 * A credit's text: spec 001's 'You received {amount} {asset}' once the money arrived
 * (Complete); a credit still Pending, or Failed, says so instead of announcing money received.
 */
export function creditMessage(t: ReceivedCandidate): string {
  const amount = `${noticeAmount(t.amount)} ${t.asset_id}`;
  if (t.status === 'Complete') return `You received ${amount}`;
  const what = t.type === 'deposit' ? `Your deposit of ${amount}` : `Incoming ${amount}`;
  return t.status === 'Pending' ? `${what} is pending.` : `${what} has failed.`;
}

/**
 * The bell's list: the newest stored notifications, plus a 'You received …' item for every
 * credit of the last 7 days (newest 20) that no stored notification names, newest first, 15 shown.
 * `namedTransactionIds` holds every transaction a stored notification of the user refers to.
 */
export function mergeNotificationFeed(input: {
  stored: StoredNotification[];
  received: ReceivedCandidate[];
  namedTransactionIds: ReadonlySet<string>;
  now: Date;
}): { notifications: FeedItem[]; unread: number } {
  const since = input.now.getTime() - FEED_RULES.receivedDays * 86_400_000;
  const stored = [...input.stored].sort(newestFirst).slice(0, FEED_RULES.stored);
  const received = input.received
    .filter((t) => money(t.amount).gt(0) && Date.parse(t.created_at) > since)
    .sort(newestFirst)
    .slice(0, FEED_RULES.receivedMax)
    .filter((t) => !input.namedTransactionIds.has(t.id));
  const items: FeedItem[] = [
    ...stored.map((n) => ({ ...n, source: 'stored' as const })),
    ...received.map((t) => ({
      id: t.id,
      message: creditMessage(t),
      read: true,
      created_at: t.created_at,
      transaction_id: t.id,
      source: 'received' as const,
    })),
  ];
  const shown = items.sort(newestFirst).slice(0, FEED_RULES.shown);
  return { notifications: shown, unread: shown.filter((i) => !i.read).length };
}

function newestFirst(a: { created_at: string }, b: { created_at: string }): number {
  return Date.parse(b.created_at) - Date.parse(a.created_at);
}
