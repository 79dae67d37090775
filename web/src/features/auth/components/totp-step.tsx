import { useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/button.js';
import { CodeField } from '@/components/code-field.js';
import { Field } from '@/components/field.js';
import { useFocusFirstError } from '@/lib/use-focus-first-error.js';

type TotpStepProps = {
  mandatory: boolean;
  code: string;
  onCodeChange: (code: string) => void;
  error?: string;
  attempt: number;
  busy: boolean;
  onSubmit: (event: FormEvent) => void;
  onBack: () => void;
};

/** A recovery code as typed: letters, digits and its dash, at most 11. */
const toRecoveryCode = (value: string) => value.replace(/[^A-Za-z0-9-]/g, '').slice(0, 11);

/** Step 1: the six-digit code from the authenticator app, or one of the recovery codes. */
export function TotpStep({ mandatory, code, onCodeChange, error, attempt, busy, onSubmit, onBack }: TotpStepProps) {
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstError(formRef, attempt);
  const [recovery, setRecovery] = useState(false);
  const toggle = () => {
    setRecovery((r) => !r);
    onCodeChange('');
  };

  return (
    <form ref={formRef} className="form" noValidate onSubmit={onSubmit} aria-labelledby="totp-title">
      <h2 id="totp-title" className="form__title">
        Two-Factor Authentication
      </h2>
      <p className="form__text">
        {mandatory
          ? 'Your account requires two-factor authentication. Please enter the code from your authenticator app to continue.'
          : 'Enter the code from your authenticator app.'}
      </p>
      {recovery ? (
        <Field
          label="Recovery Code"
          name="recovery-code"
          value={code}
          onChange={(e) => onCodeChange(toRecoveryCode(e.target.value))}
          error={error}
          autoComplete="off"
          placeholder="xxxxx-xxxxx"
          hint="One of the recovery codes you saved when you set up the authenticator app. Each works once."
          autoFocus
        />
      ) : (
        <CodeField label="Verification Code" value={code} onChange={onCodeChange} error={error} autoFocus />
      )}
      <Button type="submit" className="button--block" loading={busy} loadingText="Verifying...">
        Verify Code
      </Button>
      <p className="form__links">
        <button type="button" className="link-button" onClick={toggle}>
          {recovery ? 'Use the code from your authenticator app' : 'Lost your authenticator? Use a recovery code'}
        </button>
      </p>
      {!mandatory && (
        <p className="form__links">
          <button type="button" className="link-button" onClick={onBack}>
            Back to Login
          </button>
        </p>
      )}
    </form>
  );
}
