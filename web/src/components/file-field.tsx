import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { buttonClassName } from './button.js';

type FileFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> & {
  label: ReactNode;
  /** The button's text: 'Choose file' or 'Choose files'. */
  buttonText?: string;
  /** What is chosen, shown beside the button; 'No file chosen' when empty. */
  chosen?: string | null;
  hint?: ReactNode;
  error?: string | null;
  id?: string;
};

/**
 * A file input that looks like the app's buttons: the native input stays in the page (it takes
 * focus and opens the picker from the keyboard) but is visually hidden; its styled label is
 * the button, and shows the focus ring while the input has focus.
 */
export function FileField({ label, buttonText, chosen, hint, error, id, className, multiple, ...inputProps }: FileFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const labelId = `${inputId}-label`;
  const chosenId = `${inputId}-chosen`;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy = [chosenId, hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');

  return (
    <div className={className ? `field ${className}` : 'field'}>
      <span className="field__label" id={labelId}>
        {label}
      </span>
      <div className="file-field">
        <input
          id={inputId}
          type="file"
          className="file-field__input"
          multiple={multiple}
          aria-labelledby={labelId}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...inputProps}
        />
        <label htmlFor={inputId} className={buttonClassName('secondary', 'file-field__button')} aria-hidden="true">
          {buttonText ?? (multiple ? 'Choose files' : 'Choose file')}
        </label>
        <span id={chosenId} className="file-field__chosen">
          {chosen || (multiple ? 'No files chosen' : 'No file chosen')}
        </span>
      </div>
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}
