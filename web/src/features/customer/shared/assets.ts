import { ASSETS as LEDGER_ASSETS, ASSET_IDS, isAssetId, type AssetId } from '@ledger/contract/assets.js';

/** The ten supported assets (spec 001 section 1), in the spec's order, as the ledger lists them. */
export { ASSET_IDS, isAssetId, type AssetId };

export type AssetInfo = {
  id: AssetId;
  name: string;
  /** The badge colour behind the asset's letters. */
  color: string;
};

/** The badge colours: the only thing about an asset the client adds to the ledger's list. */
const COLORS: Record<AssetId, string> = {
  BTC: '#f7931a',
  ETH: '#627eea',
  USDT: '#26a17b',
  BNB: '#d4a20b',
  SOL: '#9945ff',
  XRP: '#3b82f6',
  ADA: '#0033ad',
  DOGE: '#b59a30',
  DOT: '#e6007a',
  LTC: '#5a7fbf',
};

export const ASSETS = Object.fromEntries(LEDGER_ASSETS.map(({ id, name }) => [id, { id, name, color: COLORS[id] }])) as Record<
  AssetId,
  AssetInfo
>;

/** The asset's name, or its id when it is not one of the ten. */
export function assetName(id: string): string {
  return isAssetId(id) ? ASSETS[id].name : id;
}
