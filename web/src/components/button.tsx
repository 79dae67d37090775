import type { ButtonHTMLAttributes, ReactNode } from 'react';

export type ButtonVariant = 'primary' | 'secondary' | 'danger';

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  /** While true the button is disabled, shows a spinner and, if given, `loadingText`. */
  loading?: boolean;
  loadingText?: ReactNode;
};

/** The class names of a button, for links that must look like one. */
export function buttonClassName(variant: ButtonVariant = 'primary', extra?: string): string {
  const base = `button button--${variant}`;
  return extra ? `${base} ${extra}` : base;
}

export function Button({
  variant = 'primary',
  loading = false,
  loadingText,
  type = 'button',
  disabled,
  className,
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={buttonClassName(variant, className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading && <span className="button__spinner" aria-hidden="true" />}
      <span>{loading && loadingText !== undefined ? loadingText : children}</span>
    </button>
  );
}
