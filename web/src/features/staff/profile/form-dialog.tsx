import { useEffect, useRef, type ReactNode } from 'react';
import { Banner } from '@/components/banner.js';
import { Button } from '@/components/button.js';
import { Modal } from '@/components/modal.js';
import { useSubmit } from '@/lib/use-submit.js';
import { errorText } from './api/calls.js';

/** Spec 002 section 9: dialogs close 1.5 s after success. */
const CLOSE_AFTER_MS = 1500;

type FormDialogProps = {
  title: string;
  /** The confirm button's label, e.g. 'Save Address'. */
  submitLabel: string;
  onClose: () => void;
  /** A message when the form cannot be sent as it is; nothing is sent then. */
  validate?: () => string | null;
  /** Sends the form; a throw is shown as the error. */
  save: () => Promise<unknown>;
  /** Refreshes what the dialog changed, once the success message shows. */
  onSaved: () => Promise<void>;
  /** The success banner; from the answer when it depends on it (e.g. 'Awaiting second approval'). */
  successText: string | ((answer: unknown) => string);
  /** Shown when a failure carries no message of its own. */
  failureText: string;
  /** See FormDialogFrame. */
  notice?: string | null;
  children: ReactNode;
};

/**
 * A staff profile dialog that sends one form (Update Address, Add Tx, Edit Transaction):
 * error and success banners above the fields, Cancel and the confirm button below. After a
 * success the confirm button stays disabled, the tab refreshes and the dialog closes itself.
 */
export function FormDialog({
  title,
  submitLabel,
  onClose,
  validate,
  save,
  onSaved,
  successText,
  failureText,
  notice,
  children,
}: FormDialogProps) {
  // The success stays until the dialog closes itself.
  const { busy, error, success, run, fail, reset } = useSubmit({ successMs: null });
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const submit = async () => {
    reset();
    const invalid = validate?.() ?? null;
    if (invalid) return fail(invalid);
    const failure = (e: unknown) => errorText(e, failureText);
    const saved = await run(async () => {
      const answer = await save();
      return typeof successText === 'function' ? successText(answer) : successText;
    }, failure);
    if (!saved) return;
    // The success shows while the tab refreshes; then the dialog closes.
    try {
      await onSaved();
      timer.current = setTimeout(onClose, CLOSE_AFTER_MS);
    } catch (e) {
      fail(failure(e));
    }
  };

  return (
    <FormDialogFrame
      title={title}
      submitLabel={submitLabel}
      onClose={onClose}
      onSubmit={() => void submit()}
      busy={busy}
      success={success}
      error={error}
      notice={notice}
    >
      {children}
    </FormDialogFrame>
  );
}

type FormDialogFrameProps = {
  title: string;
  submitLabel: string;
  onClose: () => void;
  onSubmit: () => void;
  /** Shows 'Saving...' on the confirm button. */
  busy: boolean;
  /** Once set, the confirm button stays disabled. */
  success?: string | null;
  error: string | null;
  /**
   * What will happen on submit that the form alone does not show (e.g. that the action will wait
   * for a second person's approval), beside the confirm button and announced politely as it
   * changes; null: nothing to tell now. Given (even null), its live region is there from the start.
   */
  notice?: string | null;
  children: ReactNode;
};

/**
 * The look of a staff profile dialog with a form: success and error banners above the fields,
 * Cancel and the confirm button below. For a dialog that keeps its own state (Add Crypto Buying
 * Link, whose file picker reports errors before anything is sent); the others use FormDialog.
 */
export function FormDialogFrame({
  title,
  submitLabel,
  onClose,
  onSubmit,
  busy,
  success = null,
  error,
  notice,
  children,
}: FormDialogFrameProps) {
  return (
    <Modal
      open
      onClose={onClose}
      title={title}
      footer={
        <>
          {notice !== undefined && (
            <div className="form-dialog__notice" role="status">
              {/* Once sent, the success banner says what the server decided. */}
              {notice && !success ? notice : null}
            </div>
          )}
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={onSubmit} loading={busy} loadingText="Saving..." disabled={Boolean(success)}>
            {submitLabel}
          </Button>
        </>
      }
    >
      {success && <Banner variant="success">{success}</Banner>}
      {error && <Banner variant="error">{error}</Banner>}
      {children}
    </Modal>
  );
}

/** The statuses a staff member may give a transaction (spec 002). */
export const TX_STATUS_OPTIONS = [
  ['Pending', 'Pending'],
  ['Complete', 'Complete'],
  ['Failed', 'Failed'],
] as const;

type FormSelectProps = {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** [value, label] pairs. */
  options: readonly (readonly [string, string])[];
};

/** A labelled select styled as the kit's Field, for the dialogs' forms. */
export function FormSelect({ id, label, value, onChange, options }: FormSelectProps) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select id={id} className="field__input" value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map(([optionValue, optionLabel]) => (
          <option key={optionValue} value={optionValue}>
            {optionLabel}
          </option>
        ))}
      </select>
    </div>
  );
}
