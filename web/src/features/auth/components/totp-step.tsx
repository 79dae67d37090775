import { useRef, type FormEvent } from 'react';
import { Button } from '../../../components/button.js';
import { CodeField } from '../../../components/code-field.js';
import { useFocusFirstError } from '../../../lib/use-focus-first-error.js';

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

/** Step 1: the six-digit code from the authenticator app. */
export function TotpStep({ mandatory, code, onCodeChange, error, attempt, busy, onSubmit, onBack }: TotpStepProps) {
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstError(formRef, attempt);

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
      <CodeField label="Verification Code" value={code} onChange={onCodeChange} error={error} autoFocus />
      <Button type="submit" className="button--block" loading={busy} loadingText="Verifying...">
        Verify Code
      </Button>
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
