import { useState, type FormEvent } from 'react';
import { Banner } from '../../../../components/banner.js';
import { Button } from '../../../../components/button.js';
import { Field } from '../../../../components/field.js';
import { NewPasswordFields } from '../../../../components/new-password-fields.js';
import { useTimedMessage } from '../../shared/hooks/use-timed-message.js';
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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [success, showSuccess] = useTimedMessage(4000);
  const complete = Boolean(current && next && confirm);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!complete) return;
    const rule = newPasswordError(next, confirm);
    setError(rule);
    if (rule) return;
    setBusy(true);
    try {
      const result = await verifyAndUpdatePassword(current, next);
      if (result.success) {
        setCurrent('');
        setNext('');
        setConfirm('');
        showSuccess('Password changed successfully!');
      } else {
        setError(result.error ?? (result.status >= 400 ? PASSWORD_MESSAGES.status(result.status) : PASSWORD_MESSAGES.failed));
      }
    } catch {
      setError(PASSWORD_MESSAGES.failed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="security-section" aria-labelledby="change-password-title">
      <h3 id="change-password-title" className="security-section__title">
        Change Password
      </h3>
      {success && <Banner variant="success">{success}</Banner>}
      {error && <Banner variant="error">{error}</Banner>}
      <form className="password-form" onSubmit={(e) => void submit(e)} noValidate>
        <Field label="Current Password" name="current-password" type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
        <NewPasswordFields
          name="new-password"
          value={next}
          onChange={setNext}
          hint="At least 8 characters, including at least one number."
          confirm={{ name: 'confirm-new-password', value: confirm, onChange: setConfirm }}
        />
        <div className="mfa-panel__actions">
          <Button type="submit" disabled={!complete} loading={busy} loadingText="Updating...">
            Change Password
          </Button>
        </div>
      </form>
    </section>
  );
}
