import type { Decimal } from 'decimal.js';
import type { AssetId } from '../assets.js';
import { money, ZERO } from '../money.js';
import { WALLET_STREAM_PREFIX } from '../wallet/events.js';
import { imbalances, postingsFor, type JournalTransaction, type Posting } from './postings.js';

/** What the book saw of one event from the log. */
export interface BookEvent {
  eventId: string;
  streamId: string;
  type: string;
  data: unknown;
  position?: string;
}

export interface BookProblem {
  eventId: string;
  type: string;
  position?: string;
  problem: string;
}

/**
 * The journal folded in memory: account balances per asset and the transactions' states.
 * The CLI's trial balance, `ledger verify` and the property tests run the log through it;
 * the journal projection writes the same postings to tables.
 */
export class JournalBook {
  readonly transactions = new Map<string, JournalTransaction>();
  /** `${account}|${asset}` -> balance */
  readonly balances = new Map<string, Decimal>();
  events = 0;
  /** The first wallet event whose postings do not sum to zero, or whose type has no rule. */
  firstProblem: BookProblem | null = null;
  readonly unruledTypes = new Set<string>();

  /** Posts one event; returns its postings ([] for events outside the wallet). */
  apply(event: BookEvent): Posting[] {
    if (!event.streamId.startsWith(WALLET_STREAM_PREFIX) || !event.type.startsWith('wallet.')) return [];
    const userId = event.streamId.slice(WALLET_STREAM_PREFIX.length);
    const result = postingsFor(event.type, event.data, { userId, transaction: (id) => this.transactions.get(id) });
    this.events++;
    if (!result) {
      this.unruledTypes.add(event.type);
      this.firstProblem ??= {
        eventId: event.eventId,
        type: event.type,
        position: event.position,
        problem: `no posting rule for ${event.type}`,
      };
      return [];
    }
    if (result.transaction) this.transactions.set(result.transaction.transactionId, result.transaction);
    const off = imbalances(result.postings);
    if (off.size > 0 && !this.firstProblem) {
      const sums = [...off].map(([asset, sum]) => `${asset} ${sum.toFixed()}`).join(', ');
      this.firstProblem = {
        eventId: event.eventId,
        type: event.type,
        position: event.position,
        problem: `postings do not sum to zero (${sums})`,
      };
    }
    for (const p of result.postings) {
      const key = `${p.account}|${p.assetId}`;
      this.balances.set(key, (this.balances.get(key) ?? ZERO).plus(money(p.amount)));
    }
    return result.postings;
  }

  balance(account: string, assetId: AssetId): Decimal {
    return this.balances.get(`${account}|${assetId}`) ?? ZERO;
  }

  /** [account, asset, balance] for every account that was ever posted to. */
  *entries(): Iterable<[string, AssetId, Decimal]> {
    for (const [key, value] of this.balances) {
      const i = key.lastIndexOf('|');
      yield [key.slice(0, i), key.slice(i + 1) as AssetId, value];
    }
  }
}
