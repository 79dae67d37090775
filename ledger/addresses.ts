import type { AssetId } from './assets.js';

/**
 * The shape of a receiving address per asset (the network the custodian uses for it).
 * A shape check catches typos and wrong-network pastes; it cannot prove an address exists.
 */
export const ADDRESS_SHAPES: Record<AssetId, { network: string; pattern: RegExp }> = {
  BTC: { network: 'Bitcoin', pattern: /^(bc1[02-9ac-hj-np-z]{25,87}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/ },
  ETH: { network: 'Ethereum', pattern: /^0x[0-9a-fA-F]{40}$/ },
  USDT: { network: 'Ethereum (ERC-20)', pattern: /^0x[0-9a-fA-F]{40}$/ },
  BNB: { network: 'BNB Smart Chain', pattern: /^0x[0-9a-fA-F]{40}$/ },
  SOL: { network: 'Solana', pattern: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/ },
  XRP: { network: 'XRP Ledger', pattern: /^r[1-9A-HJ-NP-Za-km-z]{24,34}$/ },
  ADA: { network: 'Cardano', pattern: /^addr1[02-9ac-hj-np-z]{50,110}$/ },
  DOGE: { network: 'Dogecoin', pattern: /^[DA9][1-9A-HJ-NP-Za-km-z]{25,34}$/ },
  DOT: { network: 'Polkadot', pattern: /^1[1-9A-HJ-NP-Za-km-z]{46,47}$/ },
  LTC: { network: 'Litecoin', pattern: /^(ltc1[02-9ac-hj-np-z]{25,87}|[LM3][1-9A-HJ-NP-Za-km-z]{26,33})$/ },
};

export function isValidAddress(assetId: AssetId, address: string): boolean {
  return ADDRESS_SHAPES[assetId].pattern.test(address.trim());
}
