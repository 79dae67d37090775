/** The ten supported assets (spec 001 section 1), in the spec's order. */
export const ASSET_IDS = ['BTC', 'ETH', 'USDT', 'BNB', 'SOL', 'XRP', 'ADA', 'DOGE', 'DOT', 'LTC'] as const;
export type AssetId = (typeof ASSET_IDS)[number];

export type AssetInfo = {
  id: AssetId;
  name: string;
  /** The badge colour behind the asset's letters. */
  color: string;
};

export const ASSETS: Record<AssetId, AssetInfo> = {
  BTC: { id: 'BTC', name: 'Bitcoin', color: '#f7931a' },
  ETH: { id: 'ETH', name: 'Ethereum', color: '#627eea' },
  USDT: { id: 'USDT', name: 'Tether USDT', color: '#26a17b' },
  BNB: { id: 'BNB', name: 'BNB', color: '#d4a20b' },
  SOL: { id: 'SOL', name: 'Solana', color: '#9945ff' },
  XRP: { id: 'XRP', name: 'XRP', color: '#3b82f6' },
  ADA: { id: 'ADA', name: 'Cardano', color: '#0033ad' },
  DOGE: { id: 'DOGE', name: 'Dogecoin', color: '#b59a30' },
  DOT: { id: 'DOT', name: 'Polkadot', color: '#e6007a' },
  LTC: { id: 'LTC', name: 'Litecoin', color: '#5a7fbf' },
};

export function isAssetId(value: unknown): value is AssetId {
  return typeof value === 'string' && (ASSET_IDS as readonly string[]).includes(value);
}

/** The asset's name, or its id when it is not one of the ten. */
export function assetName(id: string): string {
  return isAssetId(id) ? ASSETS[id].name : id;
}
