import { ASSETS, isAssetId } from '../assets.js';

/** The relative luminance of a #rrggbb colour (WCAG 2). */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

const LIGHT_INK = '#ffffff';
const DARK_INK = '#0b1120';

/** White or near-black, whichever reads better on `background` (white on BTC orange was 2.3:1). */
export function inkOn(background: string): string {
  const bg = luminance(background);
  const onWhite = 1.05 / (bg + 0.05);
  const onDark = (bg + 0.05) / (luminance(DARK_INK) + 0.05);
  return onWhite >= onDark ? LIGHT_INK : DARK_INK;
}

/** A round badge with the asset's ticker, in the asset's colour. Decorative: the name is always written beside it. */
export function AssetIcon({ asset, size = 'medium' }: { asset: string; size?: 'small' | 'medium' | 'large' }) {
  const color = isAssetId(asset) ? ASSETS[asset].color : '#64748b';
  const ink = inkOn(color);
  return (
    <span
      className={`asset-icon asset-icon--${size}${ink === DARK_INK ? ' asset-icon--dark-ink' : ''}`}
      style={{ background: color, color: ink }}
      aria-hidden="true"
    >
      {asset.slice(0, 4)}
    </span>
  );
}
