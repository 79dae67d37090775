import { randomUUID } from 'node:crypto';
import { newId } from '../ledger/ids.js';
import type { EventStore } from '../ledger/event-store/port.js';
import { toNewEvents, type Actor } from '../ledger/command-handler.js';
import { walletDecider } from '../ledger/wallet/decider.js';
import type { WalletEvent } from '../ledger/wallet/events.js';
import { decide, evolve, initialState, WalletError, type WalletCommand, type WalletState } from '../ledger/wallet/wallet.js';
import { ASSET_IDS, type AssetId } from '../ledger/assets.js';
import { money } from '../ledger/money.js';

const SEED_ACTOR: Actor = { id: 'seed', role: 'SYSTEM' };
const EVENTS_PER_WALLET = 100;
const APPEND_CHUNK = 100;

/** A small deterministic PRNG so that a seed run can be repeated (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * At most this many of a wallet's deposits and withdrawals wait at once: past it, the next step
 * settles or fails one, as a back office works its queue. Without it a long history kept about
 * one transaction in seven open forever (15,000 in a wallet of 100,000 events), which no
 * wallet in service has.
 */
export const SEED_MAX_PENDING = 20;

/**
 * One wallet's history, made by the decider itself from random commands, so that every
 * seeded event is one the ledger could have written (no negative available balance).
 */
export function walletHistory(count: number, random: () => number, start: number): WalletEvent[] {
  let state: WalletState = initialState();
  const events: WalletEvent[] = [];
  const pending: string[] = [];
  const amount = () =>
    money(Math.floor(random() * 1e8) + 1)
      .dividedBy(1e6)
      .toFixed(); // 0.000001 .. 100
  let guard = 0;
  while (events.length < count && guard++ < count * 10) {
    const asset = ASSET_IDS[Math.floor(random() * 4)] as AssetId;
    const sentAt = new Date(start + events.length * 60_000).toISOString();
    const backlog = pending.length >= SEED_MAX_PENDING;
    const r = backlog ? 0.65 + random() * 0.35 : random();
    let command: WalletCommand;
    if (events.length === 0 || (r < 0.15 && !backlog)) {
      command = {
        type: 'RecordTransaction',
        transactionId: newId(),
        assetId: asset,
        amount: money(amount()).times(10),
        status: 'Complete',
        txType: 'deposit',
        note: 'Opening balance',
        senderAddress: 'seed',
        txid: null,
        isHidden: false,
        reason: 'seed',
        sentAt,
      };
    } else if (r < 0.45) {
      command = {
        type: 'RequestDeposit',
        transactionId: newId(),
        assetId: asset,
        amount: money(amount()),
        paymentMethodId: randomUUID(),
        sentAt,
      };
    } else if (r < 0.65) {
      command = {
        type: 'RequestWithdrawal',
        transactionId: newId(),
        assetId: asset,
        amount: money(amount()).dividedBy(10),
        paymentMethodId: randomUUID(),
        sentAt,
      };
    } else if (pending.length > 0) {
      const [id] = pending.splice(Math.floor(random() * pending.length), 1);
      command =
        r < 0.9
          ? { type: 'SettleTransaction', transactionId: id!, by: { system: 'seed' } }
          : { type: 'FailTransaction', transactionId: id!, reason: 'seeded failure' };
    } else continue;
    try {
      const decided = decide(command, state);
      for (const e of decided) {
        state = evolve(state, e);
        events.push(e);
        if (e.type === 'wallet.deposit-requested' || e.type === 'wallet.withdrawal-requested') pending.push(e.data.transactionId);
      }
    } catch (err) {
      if (!(err instanceof WalletError)) throw err;
    }
  }
  return events;
}

export interface SeedResult {
  wallets: number;
  /** The customers whose wallets were seeded. */
  userIds: string[];
  events: number;
  seconds: number;
}

/** Appends about `events` wallet events over `events / perWallet` new wallets (100 events each by default), a few writers at once. */
export async function seedLedger(
  store: EventStore,
  opts: { events: number; seed?: number; concurrency?: number; onProgress?: (events: number) => void; perWallet?: number },
): Promise<SeedResult> {
  const random = rng(opts.seed ?? 42);
  const perWallet = opts.perWallet ?? EVENTS_PER_WALLET;
  const wallets = Math.max(1, Math.ceil(opts.events / perWallet));
  const userIds: string[] = [];
  const t0 = performance.now();
  let written = 0;
  let next = 0;
  const start = Date.parse('2026-01-01T00:00:00Z');
  const worker = async () => {
    while (next < wallets && written < opts.events) {
      const w = next++;
      const quota = Math.min(perWallet, opts.events - w * perWallet);
      if (quota <= 0) break;
      const history = walletHistory(quota, random, start + w * 3_600_000);
      const userId = randomUUID();
      userIds.push(userId);
      const streamId = `${walletDecider.category}-${userId}`;
      let revision: bigint | 'no_stream' = 'no_stream';
      for (let i = 0; i < history.length; i += APPEND_CHUNK) {
        const chunk = toNewEvents(walletDecider, streamId, history.slice(i, i + APPEND_CHUNK), { actor: SEED_ACTOR });
        const r = await store.append(streamId, chunk, { expectedRevision: revision });
        revision = r.nextExpectedRevision;
        written += chunk.length;
        opts.onProgress?.(written);
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 4 }, worker));
  return { wallets, userIds, events: written, seconds: (performance.now() - t0) / 1000 };
}
