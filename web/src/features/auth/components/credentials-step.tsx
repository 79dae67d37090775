import { useRef, type FormEvent, type RefObject } from 'react';
import { Button } from '@/components/button.js';
import { CaptchaWidget, type CaptchaWidgetHandle } from '@/components/captcha-widget.js';
import { Field } from '@/components/field.js';
import { useFocusFirstError } from '@/lib/use-focus-first-error.js';
import type { FieldErrors } from '../utils/validation.js';

type CredentialsStepProps = {
  email: string;
  onEmailChange: (value: string) => void;
  password: string;
  onPasswordChange: (value: string) => void;
  errors: FieldErrors<'email' | 'password' | 'code'>;
  attempt: number;
  busy: boolean;
  captchaRequired: boolean;
  captchaRef: RefObject<CaptchaWidgetHandle | null>;
  onCaptchaToken: (token: string | null) => void;
  captchaError: string | null;
  onSubmit: (event: FormEvent) => void;
  onForgotPassword: () => void;
};

/** Step 0: e-mail and password, and the bot check once a wrong password was tried. */
export function CredentialsStep(props: CredentialsStepProps) {
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstError(formRef, props.attempt);

  return (
    <form ref={formRef} className="form" noValidate onSubmit={props.onSubmit} aria-label="Sign in">
      <Field
        label="Email Address"
        type="email"
        name="email"
        autoComplete="email"
        value={props.email}
        onChange={(e) => props.onEmailChange(e.target.value)}
        error={props.errors.email}
        autoFocus
      />
      <Field
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        value={props.password}
        onChange={(e) => props.onPasswordChange(e.target.value)}
        error={props.errors.password}
      />
      <div className="form__row form__row--end">
        <button type="button" className="link-button" onClick={props.onForgotPassword}>
          Forgot Password
        </button>
      </div>
      {props.captchaRequired && <CaptchaWidget ref={props.captchaRef} onToken={props.onCaptchaToken} error={props.captchaError} />}
      <Button type="submit" className="button--block" loading={props.busy} loadingText="Signing In...">
        Sign In
      </Button>
    </form>
  );
}
