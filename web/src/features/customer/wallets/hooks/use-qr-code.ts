import { useEffect, useState } from 'react';

/** The QR code's size and error correction (spec 001 section 9). */
export const QR_SIZE = 160;
export const QR_LEVEL = 'M';

/**
 * An SVG QR code of `text` as an image address. The encoder is loaded on first use,
 * so it stays out of the screens that never show one.
 */
export function useQrCode(text: string | null): { src: string | null; failed: boolean } {
  const [state, setState] = useState<{ src: string | null; failed: boolean }>({ src: null, failed: false });

  useEffect(() => {
    if (!text) {
      setState({ src: null, failed: false });
      return;
    }
    let cancelled = false;
    setState({ src: null, failed: false });
    import('qrcode')
      .then((mod) => {
        // A CommonJS package: its functions sit on the namespace or on its default export.
        const QRCode = (mod.default as typeof mod.default | undefined) ?? mod;
        return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: QR_LEVEL, width: QR_SIZE, margin: 2 });
      })
      .then((svg) => {
        if (!cancelled) setState({ src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`, failed: false });
      })
      .catch(() => {
        if (!cancelled) setState({ src: null, failed: true });
      });
    return () => {
      cancelled = true;
    };
  }, [text]);

  return state;
}
