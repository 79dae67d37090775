import { useRef, type FormEvent } from 'react';
import { Button } from '@/components/button.js';
import { CodeField } from '@/components/code-field.js';
import { useFocusFirstError } from '@/lib/use-focus-first-error.js';

type EmailCodeStepProps = {
  sentTo: string;
  code: string;
  onCodeChange: (code: string) => void;
  error?: string;
  attempt: number;
  busy: boolean;
  onSubmit: (event: FormEvent) => void;
};

/** Step 2: the six-digit code sent to the account's e-mail address. */
export function EmailCodeStep({ sentTo, code, onCodeChange, error, attempt, busy, onSubmit }: EmailCodeStepProps) {
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstError(formRef, attempt);

  return (
    <form ref={formRef} className="form" noValidate onSubmit={onSubmit} aria-labelledby="email-code-title">
      <h2 id="email-code-title" className="form__title">
        Check Your Email
      </h2>
      <p className="form__text">
        We sent a 6-digit verification code to <strong className="form__address">{sentTo}</strong>. Enter it below to continue.
      </p>
      <CodeField label="Email Verification Code" value={code} onChange={onCodeChange} error={error} autoFocus />
      <Button type="submit" className="button--block" loading={busy} loadingText="Verifying...">
        Verify Email OTP
      </Button>
    </form>
  );
}
