import { describe, expect, it } from 'vitest';
import { FEED_RULES, mergeNotificationFeed, type ReceivedCandidate, type StoredNotification } from './feed.js';
import { settlementMessage } from './notifications.js';

const NOW = new Date('2026-11-23T12:00:00.000Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000).toISOString();
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const stored = (n: number, at: string, extra: Partial<StoredNotification> = {}): StoredNotification => ({
  id: uuid(n),
  message: `stored ${n}`,
  read: false,
  created_at: at,
  transaction_id: null,
  ...extra,
});
const credit = (n: number, at: string, amount = '1.5', asset = 'BTC', extra: Partial<ReceivedCandidate> = {}): ReceivedCandidate => ({
  id: uuid(1000 + n),
  amount,
  asset_id: asset,
  created_at: at,
  type: 'deposit',
  status: 'Complete',
  ...extra,
});

describe('notification feed (spec 001 section 9)', () => {
  it('shows a completed credit as a read "You received {amount} {asset}" item in the money format (2 to 8 decimals, grouped)', () => {
    const feed = mergeNotificationFeed({
      stored: [],
      namedTransactionIds: new Set(),
      now: NOW,
      received: [credit(1, hoursAgo(1), '4866.004059138010692363', 'USDT'), credit(2, hoursAgo(2), '5', 'ETH')],
    });
    expect(feed.notifications).toEqual([
      expect.objectContaining({ message: 'You received 4,866.00405914 USDT', read: true, source: 'received', transaction_id: uuid(1001) }),
      expect.objectContaining({ message: 'You received 5.00 ETH', read: true, source: 'received', transaction_id: uuid(1002) }),
    ]);
    expect(feed.unread).toBe(0);
  });

  it('says a pending credit is pending and a failed one failed, never "You received"', () => {
    const feed = mergeNotificationFeed({
      stored: [],
      namedTransactionIds: new Set(),
      now: NOW,
      received: [
        credit(1, hoursAgo(1), '1000', 'USDT', { status: 'Pending' }),
        credit(2, hoursAgo(2), '0.5', 'BTC', { status: 'Failed' }),
        credit(3, hoursAgo(3), '2', 'ETH', { status: 'Pending', type: 'send' }),
        credit(4, hoursAgo(4), '3', 'SOL', { status: 'Failed', type: 'send' }),
      ],
    });
    expect(feed.notifications.map((n) => n.message)).toEqual([
      'Your deposit of 1,000.00 USDT is pending.',
      'Your deposit of 0.50 BTC has failed.',
      'Incoming 2.00 ETH is pending.',
      'Incoming 3.00 SOL has failed.',
    ]);
  });

  it('drops a credit that a stored notification already names', () => {
    const feed = mergeNotificationFeed({
      stored: [stored(1, hoursAgo(2), { transaction_id: uuid(1001) })],
      received: [credit(1, hoursAgo(2)), credit(2, hoursAgo(3))],
      namedTransactionIds: new Set([uuid(1001)]),
      now: NOW,
    });
    expect(feed.notifications.map((n) => n.id)).toEqual([uuid(1), uuid(1002)]);
  });

  it('keeps credits of the last 7 days only', () => {
    const feed = mergeNotificationFeed({
      stored: [],
      namedTransactionIds: new Set(),
      now: NOW,
      received: [credit(1, hoursAgo(7 * 24 - 1)), credit(2, hoursAgo(7 * 24 + 1))],
    });
    expect(feed.notifications.map((n) => n.id)).toEqual([uuid(1001)]);
  });

  it('ignores outgoing amounts even when they reach the candidates', () => {
    const feed = mergeNotificationFeed({ stored: [], namedTransactionIds: new Set(), now: NOW, received: [credit(1, hoursAgo(1), '-2')] });
    expect(feed.notifications).toEqual([]);
  });

  it('takes the newest 10 stored and 20 received, merges newest first and shows 15', () => {
    const manyStored = Array.from({ length: 12 }, (_, i) => stored(i, hoursAgo(i * 2)));
    const manyCredits = Array.from({ length: 25 }, (_, i) => credit(i, hoursAgo(i * 2 + 1)));
    const feed = mergeNotificationFeed({ stored: manyStored, received: manyCredits, namedTransactionIds: new Set(), now: NOW });
    expect(feed.notifications).toHaveLength(FEED_RULES.shown);
    const times = feed.notifications.map((n) => Date.parse(n.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // alternating stored (even hours) and received (odd hours), newest first
    expect(feed.notifications.slice(0, 4).map((n) => n.source)).toEqual(['stored', 'received', 'stored', 'received']);
    expect(feed.unread).toBe(feed.notifications.filter((n) => n.source === 'stored').length);
  });

  it('never shows the 11th stored notification, even when it is newer than every credit', () => {
    const manyStored = Array.from({ length: 11 }, (_, i) => stored(i, hoursAgo(i)));
    const feed = mergeNotificationFeed({
      stored: manyStored,
      received: [credit(1, hoursAgo(100))],
      namedTransactionIds: new Set(),
      now: NOW,
    });
    expect(feed.notifications.filter((n) => n.source === 'stored')).toHaveLength(10);
    expect(feed.notifications.map((n) => n.id)).not.toContain(uuid(10));
  });
});

describe('settlement notification texts', () => {
  it('names the kind, the absolute amount in the money format and the asset', () => {
    expect(settlementMessage('deposit', 'Complete', '12345.000000000000000001', 'USDT')).toBe(
      'Your deposit of 12,345.00 USDT has been completed.',
    );
    expect(settlementMessage('deposit', 'Failed', '0.123456789', 'BTC')).toBe('Your deposit of 0.12345679 BTC has failed.');
    expect(settlementMessage('withdrawal', 'Failed', '-10.1', 'ETH')).toBe('Your withdrawal of 10.10 ETH has failed.');
    expect(settlementMessage('send', 'Complete', '-0.5', 'BTC')).toBe('Your transfer of 0.50 BTC has been sent.');
    expect(settlementMessage('send', 'Failed', '-0.5', 'BTC')).toBe('Your transfer of 0.50 BTC was not approved.');
  });

  it('gives no notification for adjustments and swaps', () => {
    expect(settlementMessage('adjustment', 'Complete', '1', 'BTC')).toBeNull();
    expect(settlementMessage('swap', 'Complete', '1', 'BTC')).toBeNull();
  });
});
