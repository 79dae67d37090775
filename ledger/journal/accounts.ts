/**
 * The chart of accounts of the double-entry journal. Every account is kept per asset
 * (an amount of BTC never meets an amount of ETH), so an account is named here and its
 * asset travels beside it on each posting.
 *
 * Signs follow the flow of value: a posting adds value to an account (positive) or takes
 * it out (negative). The world is where money comes from, so its account runs negative
 * as deposits arrive. Every event's postings sum to zero per asset, so all accounts of an
 * asset always sum to zero.
 */
export const ACCOUNT_KINDS = {
  /** Spendable now: the spec's balance plus its pending withdrawals. Owed to the customer. */
  available: { owner: 'customer', label: 'customer available' },
  /** Held for a pending withdrawal or send: still owed to the customer until it is paid out. */
  'pending-out': { owner: 'customer', label: 'customer pending withdrawals (held)' },
  /** An announced deposit not yet received: shown to the customer, not yet spendable. */
  'pending-in': { owner: 'customer', label: 'customer pending deposits' },
  /** Locked in staking: owed to the customer, not spendable until paid out. */
  staked: { owner: 'customer', label: 'customer staked' },
  /** Fees the house earned on settled deposits and withdrawals. */
  fees: { owner: 'house', label: 'fee revenue' },
  /** Corrections of type adjustment written before manual transactions had their own account (kept for old logs). */
  adjustments: { owner: 'house', label: 'adjustments' },
  /**
   * Value staff put into or took out of customers' wallets by hand (manual transactions),
   * per staff member who entered it (`staff:{staffId}:staff-adjustments`); never mixed with
   * money that came from outside. `house:staff-adjustments` holds those of unknown maker.
   */
  'staff-adjustments': { owner: 'house', label: 'staff adjustments' },
  /** The house's side of swaps: what it took in of one asset and gave out of another. */
  'swap-conversion': { owner: 'house', label: 'swap conversion' },
  /** Staking rewards the house paid out (runs negative). */
  'staking-rewards': { owner: 'house', label: 'staking rewards paid' },
  /** Money that came in from or went out to the outside world (cards, banks, chains). */
  external: { owner: 'world', label: 'external flows' },
  /** The other side of announced deposits: it always mirrors the customers' pending-in. */
  'in-transit': { owner: 'world', label: 'deposits in transit' },
} as const;

export type AccountKind = keyof typeof ACCOUNT_KINDS;
export type AccountOwner = (typeof ACCOUNT_KINDS)[AccountKind]['owner'];

/** `customer:{userId}:available`, `house:fees`, `world:external`. */
export type AccountName = string;

export function customerAccount(userId: string, kind: 'available' | 'pending-out' | 'pending-in' | 'staked'): AccountName {
  return `customer:${userId}:${kind}`;
}

export function houseAccount(kind: 'fees' | 'adjustments' | 'swap-conversion' | 'staking-rewards'): AccountName {
  return `house:${kind}`;
}

export function worldAccount(kind: 'external' | 'in-transit'): AccountName {
  return `world:${kind}`;
}

/** The account of a staff member's manual transactions; null: a maker the log does not name. */
export function staffAdjustmentsAccount(staffId: string | null): AccountName {
  return staffId ? `staff:${staffId}:staff-adjustments` : 'house:staff-adjustments';
}

export interface ParsedAccount {
  owner: AccountOwner;
  kind: AccountKind;
  userId: string | null;
}

export function parseAccount(name: AccountName): ParsedAccount {
  const parts = name.split(':');
  const kind = parts[parts.length - 1] as AccountKind;
  if (!(kind in ACCOUNT_KINDS)) throw new Error(`not an account: ${name}`);
  return { owner: ACCOUNT_KINDS[kind].owner, kind, userId: parts.length === 3 ? parts[1]! : null };
}
