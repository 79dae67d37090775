import type { ReactNode } from 'react';

export type BannerVariant = 'error' | 'success' | 'info';

type BannerProps = {
  variant: BannerVariant;
  children: ReactNode;
  className?: string;
};

/** A message above a form or page. Errors are announced at once, the rest politely. */
export function Banner({ variant, children, className }: BannerProps) {
  const classes = `banner banner--${variant}${className ? ` ${className}` : ''}`;
  return (
    <div className={classes} role={variant === 'error' ? 'alert' : 'status'}>
      {variant === 'error' ? <>Error: {children}</> : children}
    </div>
  );
}
