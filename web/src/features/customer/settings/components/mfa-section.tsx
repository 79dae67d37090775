import { useState, type FormEvent } from 'react';
import { Banner } from '@/components/banner.js';
import { Button } from '@/components/button.js';
import { Field } from '@/components/field.js';
import { ApiError } from '@/lib/api-client.js';
import { verifiedTotpFactor, type SecondStep } from '@/lib/auth-types.js';
import { fetchCurrentUser, setSession, updateUser, useSession } from '@/lib/session.js';
import { Refusal, useSubmit } from '@/lib/use-submit.js';
import { PasswordConfirmForm } from './password-confirm-form.js';
import { RecoveryCodesPanel } from './recovery-codes-panel.js';
import {
  enrolTotp,
  sendEmailCode,
  setActiveMfaMethod,
  unenrolFactor,
  verifyAndUpdatePassword,
  verifyEmailCode,
  verifyTotp,
  type TotpEnrolment,
} from '../api/security.js';

/**
 * Spec 001 section 4, "MFA setup flow": 0 list, 1 starting, 2 scan QR, 3 code, 4 remove app, 5 e-mail code, 6 remove e-mail;
 * and (issue 29) 7 confirm the password before setting up an app when the sign-in is older than 5 minutes,
 * 8 the recovery codes, shown once.
 */
type Step = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

export const MFA_MESSAGES = {
  startFailed: 'Could not start authenticator setup.',
  noEnrolmentData: 'Failed to get enrollment data',
  noFactor: 'No authenticator app factor found to unenroll.',
  removeFailed: 'Could not remove Authenticator App.',
  sendFailed: 'Failed to send verification email.',
  invalidOrExpired: 'Invalid or expired verification code. Please try again.',
  invalid: 'Invalid verification code. Please try again.',
  verifyFailed: 'Could not verify code.',
  disableEmailFailed: 'Could not disable Email authentication.',
  passwordRequired: 'Please enter your password to continue.',
  passwordFailed: 'Password verification failed. Please check your password and try again.',
  emailCodeShape: 'Please enter a valid verification code.',
  totpCodeShape: 'Please enter a valid 6-digit verification code.',
} as const;

/** A successful message lasts this long (spec 001 section 9). */
const SUCCESS_MS = 4000;
const SIX_DIGITS = /^\d{6}$/;
const digitsOnly = (value: string) => value.replace(/\D/g, '').slice(0, 6);

function codeErrorOf(error: unknown): string {
  const message = error instanceof Error ? error.message.toLowerCase() : '';
  if (message.includes('expired') || message.includes('invalid')) return MFA_MESSAGES.invalidOrExpired;
  return MFA_MESSAGES.verifyFailed;
}

/** Settings > Security > Multi-Factor Authentication: one active method at a time. */
export function MfaSection() {
  const user = useSession((s) => s.user);
  const email = user?.email ?? '';
  const totpFactor = verifiedTotpFactor(user);
  const emailOn = user?.user_metadata.active_mfa_method === 'email';
  const totpOn = Boolean(totpFactor);

  const [step, setStep] = useState<Step>(0);
  const submit = useSubmit({ successMs: SUCCESS_MS });
  const { busy, error, success, clearError } = submit;
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>([]);

  const backToList = () => {
    setStep(0);
    setCode('');
    setPassword('');
    setEnrolment(null);
  };

  /** Step 1, then the QR code (step 2), or the password first (step 7). */
  const enrol = async () => {
    setStep(1);
    try {
      const answer = await enrolTotp();
      if (!answer?.id || !answer.totp?.qr_code) throw new Refusal(MFA_MESSAGES.noEnrolmentData);
      setEnrolment(answer);
      setStep(2);
    } catch (e) {
      // The server asks for the password when the sign-in is not recent (a stolen token cannot add an app).
      if (e instanceof ApiError && e.code === 'reauthentication_required') {
        setPassword('');
        setStep(7);
        return;
      }
      setStep(0);
      throw e;
    }
  };
  const startFailed = () => MFA_MESSAGES.startFailed;
  const startAuthenticator = () => submit.run(enrol, startFailed);

  /** Cancelling an unfinished enrolment removes the unverified factor. */
  const cancelAuthenticator = async () => {
    const pending = enrolment;
    backToList();
    clearError();
    if (pending) await unenrolFactor(pending.id).catch(() => undefined);
    await fetchCurrentUser().catch(() => undefined);
  };

  /** Steps 3 and 5: the code is checked, then the method becomes the active one. */
  const verifyAndActivate = async (
    verify: () => Promise<SecondStep>,
    codeError: (error: unknown) => string,
    method: 'totp' | 'email',
    message: string,
  ) => {
    await submit.run(
      async () => {
        const session = await verify().catch((e: unknown) => Promise.reject(new Refusal(codeError(e))));
        const codes = session.recovery_codes ?? [];
        setSession(session);
        updateUser(await setActiveMfaMethod(method));
        backToList();
        if (codes.length > 0) {
          setRecoveryCodes(codes);
          setStep(8);
        }
        return message;
      },
      () => MFA_MESSAGES.verifyFailed,
    );
  };

  const confirmAuthenticator = async (event: FormEvent) => {
    event.preventDefault();
    if (!enrolment) return;
    if (!SIX_DIGITS.test(code)) return submit.fail(MFA_MESSAGES.totpCodeShape);
    await verifyAndActivate(
      () => verifyTotp(enrolment.id, code),
      (e) => (e instanceof ApiError && e.status === 400 ? MFA_MESSAGES.invalid : MFA_MESSAGES.verifyFailed),
      'totp',
      'Authenticator App has been enabled successfully.',
    );
  };

  /** Steps 4, 6 and 7: the password first (the server insists); a refusal stops what follows. */
  const confirmPassword = async (): Promise<void> => {
    if (!password) throw new Refusal(MFA_MESSAGES.passwordRequired);
    const result = await verifyAndUpdatePassword(password, password, true);
    if (!result.success) throw new Refusal(result.error ?? MFA_MESSAGES.passwordFailed);
  };

  /** Steps 4 and 6: once the password is confirmed and `prepare` has not refused, no method is active. */
  const deactivate = (message: string, failure: string, prepare: () => Promise<void> = async () => undefined) =>
    submit.run(
      async () => {
        await confirmPassword();
        await prepare();
        updateUser(await setActiveMfaMethod(null));
        backToList();
        return message;
      },
      () => failure,
    );

  const removeAuthenticator = async (event: FormEvent) => {
    event.preventDefault();
    await deactivate('Authenticator App has been removed.', MFA_MESSAGES.removeFailed, async () => {
      const factor = verifiedTotpFactor(await fetchCurrentUser());
      if (!factor) throw new Refusal(MFA_MESSAGES.noFactor);
      await unenrolFactor(factor.id);
    });
  };

  const startEmail = () =>
    submit.run(
      async () => {
        await sendEmailCode(email);
        setCode('');
        setStep(5);
      },
      () => MFA_MESSAGES.sendFailed,
    );

  const confirmEmail = async (event: FormEvent) => {
    event.preventDefault();
    if (!SIX_DIGITS.test(code)) return submit.fail(MFA_MESSAGES.emailCodeShape);
    await verifyAndActivate(
      () => verifyEmailCode(email, code),
      codeErrorOf,
      'email',
      'Email authentication has been enabled successfully.',
    );
  };

  const disableEmail = async (event: FormEvent) => {
    event.preventDefault();
    await deactivate('Email authentication has been disabled.', MFA_MESSAGES.disableEmailFailed);
  };

  const cancel = () => {
    clearError();
    backToList();
  };

  /** Step 7: the password confirmed, the set-up starts again. */
  const confirmThenStart = async (event: FormEvent) => {
    event.preventDefault();
    await submit.run(async () => {
      await confirmPassword();
      await enrol();
    }, startFailed);
  };

  const doneWithCodes = () => {
    setRecoveryCodes([]);
    backToList();
  };

  return (
    <section className="security-section" aria-labelledby="mfa-title">
      <h3 id="mfa-title" className="security-section__title">
        Multi-Factor Authentication
      </h3>
      <p className="muted">Add a second step to your sign-in. Only one method can be active at a time.</p>
      {success && <Banner variant="success">{success}</Banner>}
      {error && <Banner variant="error">{error}</Banner>}

      {step === 0 && (
        <ul className="mfa-methods">
          <li className="mfa-method">
            <div className="mfa-method__main">
              <p className="mfa-method__name">
                Authenticator App{' '}
                <span className={`badge ${totpOn ? 'badge--verified' : 'badge--muted'}`}>{totpOn ? 'Enabled' : 'Not enabled'}</span>
              </p>
              <p className="muted">Use an authenticator app to generate a 6-digit code that changes every 30 seconds.</p>
              {emailOn && <p className="muted mfa-method__note">Disable Email authentication first to use an authenticator app.</p>}
            </div>
            {totpOn ? (
              <Button variant="danger" onClick={() => (clearError(), setStep(4))}>
                Remove
              </Button>
            ) : (
              <Button onClick={() => void startAuthenticator()} disabled={emailOn || busy}>
                Set Up
              </Button>
            )}
          </li>
          <li className="mfa-method">
            <div className="mfa-method__main">
              <p className="mfa-method__name">
                Email Authentication{' '}
                <span className={`badge ${emailOn ? 'badge--verified' : 'badge--muted'}`}>{emailOn ? 'Enabled' : 'Not enabled'}</span>
              </p>
              <p className="muted">Receive a 6-digit code at {email || 'your e-mail address'} each time you sign in.</p>
              {totpOn && <p className="muted mfa-method__note">Remove the authenticator app first to use Email authentication.</p>}
            </div>
            {emailOn ? (
              <Button variant="danger" onClick={() => (clearError(), setStep(6))}>
                Disable
              </Button>
            ) : (
              <Button onClick={() => void startEmail()} disabled={totpOn || busy} loading={busy} loadingText="Sending...">
                Enable
              </Button>
            )}
          </li>
        </ul>
      )}

      {step === 1 && (
        <p className="muted" role="status">
          Starting authenticator setup...
        </p>
      )}

      {step === 2 && enrolment && (
        <div className="mfa-panel">
          <p>Scan this QR code with your authenticator app (Google Authenticator, Authy, 1Password...).</p>
          <img className="mfa-panel__qr" src={enrolment.totp.qr_code} alt="QR code for your authenticator app" width={180} height={180} />
          <p className="muted">
            Or enter this key by hand:{' '}
            <code className="mono mfa-panel__secret" aria-label={`Key ${enrolment.totp.secret.split('').join(' ')}`}>
              {groupsOfFour(enrolment.totp.secret)}
            </code>
          </p>
          <div className="mfa-panel__actions">
            <Button variant="secondary" onClick={() => void cancelAuthenticator()}>
              Cancel
            </Button>
            <Button onClick={() => (clearError(), setStep(3))}>Next</Button>
          </div>
        </div>
      )}

      {step === 3 && (
        <form className="mfa-panel" onSubmit={(e) => void confirmAuthenticator(e)} noValidate>
          <Field
            label="Enter the 6-digit code from your authenticator app"
            name="totp-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(digitsOnly(e.target.value))}
            autoFocus
          />
          <div className="mfa-panel__actions">
            <Button variant="secondary" onClick={() => void cancelAuthenticator()} disabled={busy}>
              Cancel
            </Button>
            <Button variant="secondary" onClick={() => setStep(2)} disabled={busy}>
              Back
            </Button>
            <Button type="submit" loading={busy} loadingText="Verifying...">
              Verify and Enable
            </Button>
          </div>
        </form>
      )}

      {step === 5 && (
        <form className="mfa-panel" onSubmit={(e) => void confirmEmail(e)} noValidate>
          <p>We sent a 6-digit code to {email}.</p>
          <Field
            label="Verification code"
            name="email-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(digitsOnly(e.target.value))}
            autoFocus
          />
          <div className="mfa-panel__actions">
            <Button variant="secondary" onClick={cancel} disabled={busy}>
              Cancel
            </Button>
            <Button variant="secondary" onClick={() => void startEmail()} disabled={busy}>
              Resend Code
            </Button>
            <Button type="submit" loading={busy} loadingText="Verifying...">
              Verify and Enable
            </Button>
          </div>
        </form>
      )}

      {step === 7 && (
        <PasswordConfirmForm
          intro="To set up an authenticator app, confirm your password."
          name="setup-password"
          password={password}
          onPasswordChange={setPassword}
          onSubmit={(e) => void confirmThenStart(e)}
          onCancel={cancel}
          busy={busy}
          submitLabel="Continue"
          loadingText="Confirming..."
        />
      )}

      {step === 8 && recoveryCodes.length > 0 && <RecoveryCodesPanel codes={recoveryCodes} onDone={doneWithCodes} />}

      {(step === 4 || step === 6) && (
        <PasswordConfirmForm
          intro={
            step === 4
              ? 'To remove the authenticator app, confirm your password.'
              : 'To disable Email authentication, confirm your password.'
          }
          name="confirm-password"
          password={password}
          onPasswordChange={setPassword}
          onSubmit={(e) => void (step === 4 ? removeAuthenticator(e) : disableEmail(e))}
          onCancel={cancel}
          busy={busy}
          submitLabel={step === 4 ? 'Remove Authenticator App' : 'Disable Email Authentication'}
          loadingText="Removing..."
          danger
        />
      )}
    </section>
  );
}

/** The key in groups of four, as authenticator apps print it and accept it back (spaces ignored). */
const groupsOfFour = (key: string) => key.replace(/(.{4})(?=.)/g, '$1 ');
