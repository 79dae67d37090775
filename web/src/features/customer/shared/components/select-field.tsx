import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';

type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & {
  label: ReactNode;
  /** Something at the end of the label row, e.g. an 'Edit' link. */
  labelAction?: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  hideLabel?: boolean;
};

/** A labelled native select, styled like the kit's Field, with its hint and error underneath. */
export function SelectField({ label, labelAction, error, hint, hideLabel, className, children, ...rest }: SelectFieldProps) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <div className="field__label-row">
        <label className={hideLabel ? 'visually-hidden' : 'field__label'} htmlFor={id}>
          {label}
        </label>
        {labelAction}
      </div>
      <select
        id={id}
        className="field__input field__select"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...rest}
      >
        {children}
      </select>
      {hint && (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}
