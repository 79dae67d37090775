import type { ReactNode } from 'react';

type ScreenTitleProps = {
  children: ReactNode;
  /** A line under the title. */
  subtitle?: ReactNode;
};

/** The heading a dashboard screen starts with; also names the browser tab. */
export function ScreenTitle({ children, subtitle }: ScreenTitleProps) {
  return (
    <header className="screen-title">
      {typeof children === 'string' && <title>{`${children} · wallet-ledger`}</title>}
      <h1 className="screen-title__heading">{children}</h1>
      {subtitle && <p className="screen-title__subtitle">{subtitle}</p>}
    </header>
  );
}
