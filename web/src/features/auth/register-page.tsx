import { useRef, useState, type FormEvent } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { ApiError } from '@/lib/api-client.js';
import { useSession } from '@/lib/session.js';
import { useFocusFirstError } from '@/lib/use-focus-first-error.js';
import { useSubmit } from '@/lib/use-submit.js';
import { Button } from '@/components/button.js';
import { CaptchaWidget, type CaptchaWidgetHandle } from '@/components/captcha-widget.js';
import { Field } from '@/components/field.js';
import { SubmitMessages } from '@/components/submit-messages.js';
import { verifyCaptchaToken, type CaptchaCheck } from './api/captcha.js';
import { signUp } from './api/sign-up.js';
import { AuthLayout, AuthStatus } from './components/auth-layout.js';
import { MESSAGES } from './utils/messages.js';
import { hasErrors, validateRegistration, type FieldErrors, type RegistrationForm } from './utils/validation.js';

const EMPTY_FORM: RegistrationForm = { fullName: '', email: '', password: '', confirmPassword: '' };

/** The auth service's own refusals (4xx) carry a message worth showing; anything else does not. */
function registrationFailureText(error: unknown): string {
  if (error instanceof ApiError && error.status !== null && error.status < 500) return error.message || MESSAGES.registrationFailed;
  return MESSAGES.unexpectedRegister;
}

/** Why the bot check did not pass, as the registration screen says it; null when it passed. */
function captchaFailureText(check: CaptchaCheck): string | null {
  if (check.outcome === 'service-error') return MESSAGES.captchaServiceError(check.status);
  if (check.outcome === 'unreachable') return MESSAGES.captchaNetworkRegister;
  if (check.outcome === 'rejected') return check.reason ? MESSAGES.verificationFailed(check.reason) : MESSAGES.captchaFailed;
  return null;
}

/** Registration (spec 2.4, 4.2): the account, then a confirmation e-mail. */
export function RegisterPage() {
  const status = useSession((s) => s.status);
  const signedIn = useSession((s) => s.session !== null);
  const [form, setForm] = useState<RegistrationForm>(EMPTY_FORM);
  const [errors, setErrors] = useState<FieldErrors<keyof RegistrationForm>>({});
  const [captchaToken, setCaptchaToken] = useState<string | null>(null);
  const [captchaError, setCaptchaError] = useState<string | null>(null);
  // The success message stays: it tells the visitor what to do next.
  const submit = useSubmit({ successMs: null });
  const [attempt, setAttempt] = useState(0);
  const captchaRef = useRef<CaptchaWidgetHandle>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // Once the account exists the visitor is not signed in, but keep them here to read the message.
  const finished = useRef(false);
  useFocusFirstError(formRef, attempt);

  if (status === 'loading') return <AuthStatus>Initializing...</AuthStatus>;
  if (signedIn && !finished.current) return <Navigate to="/dashboard/overview" replace />;

  const set = (key: keyof RegistrationForm) => (value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    // Editing a field clears what was said about it.
    setErrors((e) => (e[key] ? { ...e, [key]: undefined } : e));
  };

  /** Any failure: passwords go, the bot check starts over. */
  const startOver = () => {
    setForm((f) => ({ ...f, password: '', confirmPassword: '' }));
    captchaRef.current?.reset();
    setCaptchaToken(null);
  };

  /** The bot check's refusals show at the check, not in the banner. */
  const startOverAtCaptcha = (message: string) => {
    setCaptchaError(message);
    startOver();
  };

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (submit.busy) return;
    submit.reset();
    setCaptchaError(null);
    const found = validateRegistration(form);
    setErrors(found);
    if (!captchaToken) setCaptchaError(MESSAGES.captchaRequired);
    if (hasErrors(found) || !captchaToken) {
      // Passwords go after any error (spec 4.2); a solved bot check stays solved.
      setForm((f) => ({ ...f, password: '', confirmPassword: '' }));
      setAttempt((n) => n + 1);
      return;
    }

    const answered = await submit.run(async () => {
      const captchaProblem = captchaFailureText(await verifyCaptchaToken(captchaToken));
      if (captchaProblem) return startOverAtCaptcha(captchaProblem);
      try {
        await signUp({ ...form, captchaToken });
      } catch (error) {
        if (error instanceof ApiError && error.code === 'captcha_failed') return startOverAtCaptcha(MESSAGES.captchaFailed);
        throw error;
      }
      // The welcome mail is sent by the server once the address is confirmed (issue 29).
      finished.current = true;
      setForm(EMPTY_FORM);
      setErrors({});
      captchaRef.current?.reset();
      setCaptchaToken(null);
      return MESSAGES.registrationSucceeded;
    }, registrationFailureText);
    // The service refused (the banner says why) or could not be reached.
    if (!answered) startOver();
  };

  return (
    <AuthLayout
      title="Create Your Wallet Account"
      documentTitle="Sign Up"
      footer={
        <>
          Already have an account? <Link to="/login">Sign In</Link>
        </>
      }
    >
      <SubmitMessages submit={submit} />
      <form ref={formRef} className="form" noValidate onSubmit={(e) => void send(e)} aria-label="Create account">
        <Field
          label="Full Name"
          name="fullName"
          autoComplete="name"
          value={form.fullName}
          onChange={(e) => set('fullName')(e.target.value)}
          error={errors.fullName}
          autoFocus
        />
        <Field
          label="Email Address"
          type="email"
          name="email"
          autoComplete="email"
          value={form.email}
          onChange={(e) => set('email')(e.target.value)}
          error={errors.email}
        />
        <Field
          label="Password"
          type="password"
          name="password"
          autoComplete="new-password"
          value={form.password}
          onChange={(e) => set('password')(e.target.value)}
          error={errors.password}
          hint="Minimum 8 characters. Consider adding special characters & numbers for stronger security."
        />
        <Field
          label="Confirm Password"
          type="password"
          name="confirmPassword"
          autoComplete="new-password"
          value={form.confirmPassword}
          onChange={(e) => set('confirmPassword')(e.target.value)}
          error={errors.confirmPassword}
        />
        <CaptchaWidget
          ref={captchaRef}
          onToken={(token) => {
            setCaptchaToken(token);
            if (token) setCaptchaError(null);
          }}
          error={captchaError}
        />
        <Button type="submit" className="button--block" loading={submit.busy} loadingText="Creating Account...">
          Create Account
        </Button>
      </form>
    </AuthLayout>
  );
}
