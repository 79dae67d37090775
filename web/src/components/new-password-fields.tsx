import type { ReactNode } from 'react';
import { Field } from './field.js';

type NewPasswordFieldsProps = {
  value: string;
  onChange: (value: string) => void;
  /** The second entry, 'Confirm New Password'; left out where the password is typed once. */
  confirm?: { value: string; onChange: (value: string) => void; name?: string; error?: string | null };
  name?: string;
  id?: string;
  /** The screen's password rule, under the first entry. */
  hint?: ReactNode;
  error?: string | null;
  /** One message for both entries, under them: the first rule that fails. */
  sharedError?: { id: string; message: string | null | undefined };
  disabled?: boolean;
  autoFocus?: boolean;
};

/**
 * 'New Password' and, where asked, 'Confirm New Password': the password inputs of the
 * forced change, the reset link, Settings > Security and the staff reset, each with the
 * rule and the messages of its own screen.
 */
export function NewPasswordFields({
  value,
  onChange,
  confirm,
  name,
  id,
  hint,
  error,
  sharedError,
  disabled,
  autoFocus,
}: NewPasswordFieldsProps) {
  // Only a shared message marks both inputs; otherwise each Field describes its own.
  const shared = sharedError
    ? { 'aria-invalid': sharedError.message ? true : undefined, 'aria-describedby': sharedError.message ? sharedError.id : undefined }
    : {};
  return (
    <>
      <Field
        id={id}
        label="New Password"
        type="password"
        name={name}
        autoComplete="new-password"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        hint={hint}
        error={error}
        {...shared}
        disabled={disabled}
        autoFocus={autoFocus}
      />
      {confirm && (
        <Field
          label="Confirm New Password"
          type="password"
          name={confirm.name}
          autoComplete="new-password"
          value={confirm.value}
          onChange={(e) => confirm.onChange(e.target.value)}
          error={confirm.error}
          {...shared}
          disabled={disabled}
        />
      )}
      {sharedError?.message && (
        <p id={sharedError.id} className="field__error form__error" role="alert">
          {sharedError.message}
        </p>
      )}
    </>
  );
}
