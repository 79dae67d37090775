import { useEffect, useRef, useState } from 'react';
import type { Decimal } from 'decimal.js';
import { ZERO } from '@/lib/money.js';

/** The total counts up over this long (spec 001 section 9). */
export const COUNT_UP_MS = 1_500;

const easeOutCubic = (t: number) => 1 - (1 - t) ** 3;

/**
 * A value that runs from where it stood to `target` over `durationMs`. The steps in
 * between are only for show; the last frame is `target` exactly. With reduced motion
 * asked for, it jumps straight there.
 */
export function useCountUp(target: Decimal | null, durationMs = COUNT_UP_MS): Decimal | null {
  const [shown, setShown] = useState<Decimal | null>(target === null ? null : ZERO);
  const shownRef = useRef<Decimal>(ZERO);
  const key = target?.toFixed() ?? null;

  useEffect(() => {
    if (target === null) {
      setShown(null);
      return;
    }
    const from = shownRef.current;
    const reduced = typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (reduced || from.equals(target)) {
      shownRef.current = target;
      setShown(target);
      return;
    }
    const start = performance.now();
    let frame = 0;
    const step = (now: number) => {
      const t = Math.min(1, (now - start) / durationMs);
      const value = t >= 1 ? target : from.plus(target.minus(from).times(easeOutCubic(t)));
      shownRef.current = value;
      setShown(value);
      if (t < 1) frame = window.requestAnimationFrame(step);
    };
    frame = window.requestAnimationFrame(step);
    return () => window.cancelAnimationFrame(frame);
    // `key` stands for `target`: a new Decimal with the same value must not restart the count.
  }, [key, durationMs]);

  return shown;
}
