import type { ReactNode } from 'react';
import { Field } from './field.js';

export const CODE_LENGTH = 6;

/** Keeps only digits, at most six: what a verification code may hold. */
export function toCode(value: string): string {
  return value.replace(/\D/g, '').slice(0, CODE_LENGTH);
}

type CodeFieldProps = {
  label: ReactNode;
  value: string;
  onChange: (code: string) => void;
  error?: string | null;
  hint?: ReactNode;
  autoFocus?: boolean;
  disabled?: boolean;
  name?: string;
};

/**
 * A six-digit one-time code: numeric keyboard on phones, typed or pasted text cleaned of
 * anything else. No maxlength attribute: it would cut '123 456' before the cleaning.
 */
export function CodeField({ label, value, onChange, error, hint, autoFocus, disabled, name = 'code' }: CodeFieldProps) {
  return (
    <Field
      label={label}
      name={name}
      value={value}
      onChange={(event) => onChange(toCode(event.target.value))}
      error={error}
      hint={hint}
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      placeholder="000000"
      className="field--code"
      autoFocus={autoFocus}
      disabled={disabled}
    />
  );
}
