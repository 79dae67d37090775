import { useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/button.js';
import { Field } from '@/components/field.js';
import { SubmitMessages } from '@/components/submit-messages.js';
import { useFocusFirstError } from '@/lib/use-focus-first-error.js';
import { useSubmit } from '@/lib/use-submit.js';
import { requestPasswordReset } from '../api/sign-in.js';
import { MESSAGES } from '../utils/messages.js';
import { emailError } from '../utils/validation.js';

type ResetPasswordPanelProps = {
  initialEmail: string;
  onBack: () => void;
};

/** 'Forgot Password': asks for the address and always answers the same neutral way. */
export function ResetPasswordPanel({ initialEmail, onBack }: ResetPasswordPanelProps) {
  const [email, setEmail] = useState(initialEmail);
  const [error, setError] = useState<string | undefined>();
  // The neutral answer stays until the next request.
  const submit = useSubmit({ successMs: null });
  const [attempt, setAttempt] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstError(formRef, attempt);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (submit.busy) return;
    submit.reset();
    const problem = emailError(email);
    setError(problem);
    if (problem) {
      setAttempt((n) => n + 1);
      return;
    }
    await submit.run(
      async () => {
        await requestPasswordReset(email);
        setEmail('');
        return MESSAGES.resetLinkSent;
      },
      () => MESSAGES.resetLinkFailed,
    );
  };

  return (
    <form ref={formRef} className="form" noValidate onSubmit={(e) => void send(e)} aria-labelledby="reset-title">
      <h2 id="reset-title" className="form__title">
        Reset Password
      </h2>
      <p className="form__text">Enter the email address of your account and we will send you a link to set a new password.</p>
      <SubmitMessages submit={submit} />
      <Field
        label="Email Address"
        type="email"
        name="email"
        autoComplete="email"
        value={email}
        onChange={(e) => {
          setEmail(e.target.value);
          setError(undefined);
        }}
        error={error}
        autoFocus
      />
      <Button type="submit" className="button--block" loading={submit.busy} loadingText="Sending...">
        Send Reset Link
      </Button>
      <p className="form__links">
        <button type="button" className="link-button" onClick={onBack}>
          Back to Login
        </button>
      </p>
    </form>
  );
}
