import { Decimal } from 'decimal.js';

/*
 * Swap arithmetic (spec 001 section 9): the fee is 1% of the from-amount, charged in the
 * from-token; net received = amount x from price / to price - fee in USD / to price.
 * Pure and free of Node imports, so the Swap Tokens screen shows the same numbers the
 * server records.
 */

export const SWAP_FEE_RATE = '0.01';
/** Digits after the point that the ledger stores. */
const SCALE = 18;

const D = Decimal.clone({ precision: 80, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -100, toExpPos: 100 });

export interface SwapQuote {
  fromAmount: string;
  /** 1% of the from-amount, rounded up to 18 decimals, in the from-token. */
  fee: string;
  /** The fee's worth in USD at the from price. */
  feeUsd: string;
  /** What the to-leg credits, rounded down to 18 decimals. */
  netReceived: string;
  /** 1 from ≈ rate to (from price / to price), 18 decimals. */
  rate: string;
  fromPrice: string;
  toPrice: string;
}

const canon = (d: Decimal) => (d.isZero() ? '0' : d.toFixed());

/**
 * Quotes a swap from USD prices. Throws a RangeError for a non-positive amount or price:
 * the caller has already refused those with the spec's texts.
 */
export function quoteSwap(fromAmount: Decimal.Value, fromPrice: Decimal.Value, toPrice: Decimal.Value): SwapQuote {
  const amount = new D(fromAmount);
  const pFrom = new D(fromPrice);
  const pTo = new D(toPrice);
  if (!amount.isFinite() || amount.lte(0)) throw new RangeError('the from-amount must be above 0');
  if (!pFrom.isFinite() || pFrom.lte(0) || !pTo.isFinite() || pTo.lte(0)) throw new RangeError('prices must be above 0');
  const fee = amount.times(SWAP_FEE_RATE).toDecimalPlaces(SCALE, Decimal.ROUND_UP);
  const feeUsd = fee.times(pFrom);
  const net = amount.times(pFrom).dividedBy(pTo).minus(feeUsd.dividedBy(pTo)).toDecimalPlaces(SCALE, Decimal.ROUND_DOWN);
  return {
    fromAmount: canon(amount),
    fee: canon(fee),
    feeUsd: canon(feeUsd),
    netReceived: canon(net.isNegative() ? new D(0) : net),
    rate: canon(pFrom.dividedBy(pTo).toDecimalPlaces(SCALE, Decimal.ROUND_HALF_EVEN)),
    fromPrice: canon(pFrom),
    toPrice: canon(pTo),
  };
}

/** The reference both legs carry in their notes (spec 002: '(Req ID: {uuid})'). */
export function swapNote(fromAsset: string, toAsset: string, requestId: string): string {
  return `Swap: ${fromAsset} → ${toAsset} (Req ID: ${requestId})`;
}

const REQ_ID = /\(Req ID: ([0-9a-f-]+)\)/;

/** The request id in a note, or null. */
export function requestIdOf(note: string | null | undefined): string | null {
  if (!note) return null;
  return REQ_ID.exec(note)?.[1] ?? null;
}
