import type { ReactNode } from 'react';

/**
 * A box whose content may scroll (a wide table, a long list): it takes the keyboard's focus, so
 * the arrow keys scroll it, and it is named for a screen reader (axe: scrollable-region-focusable).
 */
export function ScrollArea({ label, className, children }: { label: string; className: string; children: ReactNode }) {
  return (
    <div className={className} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
