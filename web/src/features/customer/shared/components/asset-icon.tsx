import { ASSETS, isAssetId } from '../assets.js';

/** A round badge with the asset's ticker, in the asset's colour. Decorative: the name is always written beside it. */
export function AssetIcon({ asset, size = 'medium' }: { asset: string; size?: 'small' | 'medium' | 'large' }) {
  const color = isAssetId(asset) ? ASSETS[asset].color : '#64748b';
  return (
    <span className={`asset-icon asset-icon--${size}`} style={{ background: color }} aria-hidden="true">
      {asset.slice(0, 4)}
    </span>
  );
}
