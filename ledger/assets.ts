/** The ten assets of the product, in the order the spec lists them. */
export const ASSETS = [
  { id: 'BTC', name: 'Bitcoin' },
  { id: 'ETH', name: 'Ethereum' },
  { id: 'USDT', name: 'Tether USDT' },
  { id: 'BNB', name: 'BNB' },
  { id: 'SOL', name: 'Solana' },
  { id: 'XRP', name: 'XRP' },
  { id: 'ADA', name: 'Cardano' },
  { id: 'DOGE', name: 'Dogecoin' },
  { id: 'DOT', name: 'Polkadot' },
  { id: 'LTC', name: 'Litecoin' },
] as const;

export type AssetId = (typeof ASSETS)[number]['id'];

export const ASSET_IDS = ASSETS.map((a) => a.id) as [AssetId, ...AssetId[]];

export function isAssetId(value: unknown): value is AssetId {
  return typeof value === 'string' && (ASSET_IDS as string[]).includes(value);
}
