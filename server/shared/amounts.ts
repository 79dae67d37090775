import type { Decimal } from 'decimal.js';
import { parseAmount } from '../../ledger/money.js';
import { isAssetId, type AssetId } from '../../ledger/assets.js';
import { badRequest } from '../errors.js';

/**
 * An amount from a request: a decimal string (preferred), or a JSON number whose plain
 * decimal form is exact enough (no exponent). Anything else is the spec's 'Please enter a valid amount'.
 */
export function requestAmount(input: unknown, message = 'Please enter a valid amount'): Decimal {
  const text = typeof input === 'number' && Number.isFinite(input) && !/e/i.test(String(input)) ? String(input) : input;
  const parsed = parseAmount(text);
  if (!parsed.ok) throw badRequest(message);
  return parsed.value;
}

export function requestAsset(input: unknown, message = 'Please select a token'): AssetId {
  if (!isAssetId(input)) throw badRequest(message);
  return input;
}
