import type { HTMLAttributes, ReactNode } from 'react';

type CardProps = HTMLAttributes<HTMLElement> & {
  children: ReactNode;
};

/** A dark, translucent panel that lets the page background show through. */
export function Card({ className, children, ...rest }: CardProps) {
  return (
    <section className={className ? `card ${className}` : 'card'} {...rest}>
      {children}
    </section>
  );
}
