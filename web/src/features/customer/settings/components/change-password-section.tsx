import { useState, type FormEvent } from 'react';
import { Button } from '@/components/button.js';
import { Field } from '@/components/field.js';
import { NewPasswordFields } from '@/components/new-password-fields.js';
import { SubmitMessages } from '@/components/submit-messages.js';
import { Refusal, useSubmit } from '@/lib/use-submit.js';
import { verifyAndUpdatePassword } from '../api/security.js';

export const PASSWORD_MESSAGES = {
  mismatch: 'New passwords do not match.',
  tooShort: 'Password must be at least 8 characters long.',
  noDigit: 'Password must contain at least one number.',
  failed: 'Failed to change password.',
  status: (n: number) => `Password update failed with status: ${n}`,
} as const;

/** The rules of spec 001 section 5, "Change password", in the order they are reported. */
export function newPasswordError(next: string, confirm: string): string | null {
  if (next !== confirm) return PASSWORD_MESSAGES.mismatch;
  if (next.length < 8) return PASSWORD_MESSAGES.tooShort;
  if (!/\d/.test(next)) return PASSWORD_MESSAGES.noDigit;
  return null;
}

/** Settings > Security > Change Password. */
export function ChangePasswordSection() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const submit = useSubmit({ successMs: 4000 });
  const complete = Boolean(current && next && confirm);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (!complete) return;
    const rule = newPasswordError(next, confirm);
    if (rule) return submit.fail(rule);
    await submit.run(
      async () => {
        const result = await verifyAndUpdatePassword(current, next);
        if (!result.success)
          throw new Refusal(result.error ?? (result.status >= 400 ? PASSWORD_MESSAGES.status(result.status) : PASSWORD_MESSAGES.failed));
        setCurrent('');
        setNext('');
        setConfirm('');
        return 'Password changed successfully!';
      },
      () => PASSWORD_MESSAGES.failed,
    );
  };

  return (
    <section className="security-section" aria-labelledby="change-password-title">
      <h3 id="change-password-title" className="security-section__title">
        Change Password
      </h3>
      <SubmitMessages submit={submit} />
      <form className="password-form" onSubmit={(e) => void send(e)} noValidate>
        <Field
          label="Current Password"
          name="current-password"
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
        />
        <NewPasswordFields
          name="new-password"
          value={next}
          onChange={setNext}
          hint="At least 8 characters, including at least one number."
          confirm={{ name: 'confirm-new-password', value: confirm, onChange: setConfirm }}
        />
        <div className="mfa-panel__actions">
          <Button type="submit" disabled={!complete} loading={submit.busy} loadingText="Updating...">
            Change Password
          </Button>
        </div>
      </form>
    </section>
  );
}
