import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { ApiError } from '@/lib/api-client.js';
import type { CaptchaWidgetHandle } from '@/components/captcha-widget.js';
import { isBanned, pendingSecondFactor, verifiedTotpFactor, type Session, type User } from '@/lib/auth-types.js';
import { fetchCurrentUser, setSession, signOut, useSession } from '@/lib/session.js';
import { LEAVING, Refusal, useSubmit } from '@/lib/use-submit.js';
import { createMfaChallenge, verifyMfaChallenge } from '../api/mfa.js';
import { logLoginDetails, sendEmailOtp, signInWithPassword, verifyEmailOtp } from '../api/sign-in.js';
import { verifyCaptchaToken, type CaptchaCheck } from '../api/captcha.js';
import { MESSAGES } from '../utils/messages.js';
import { hasErrors, validateSignIn, type FieldErrors } from '../utils/validation.js';

export const DEFAULT_AFTER_LOGIN = '/dashboard/overview';

/** 0 credentials, 1 authenticator code, 2 e-mail code; plus the reset-password panel. */
export type LoginStep = 'credentials' | 'totp' | 'email' | 'reset';

/** /login opens at the credentials; /verify-mfa at the second step. */
export type LoginEntry = 'credentials' | 'mfa';

type LoginFieldErrors = FieldErrors<'email' | 'password' | 'code'>;

/** A location handed over in navigation state, e.g. by the protected routes. */
export function readReturnTo(state: unknown): string | null {
  if (!state || typeof state !== 'object') return null;
  const value = (state as { returnTo?: unknown }).returnTo;
  if (typeof value === 'string' && value.startsWith('/') && !value.startsWith('//')) return value;
  if (value && typeof value === 'object' && typeof (value as { pathname?: unknown }).pathname === 'string') {
    const { pathname, search = '', hash = '' } = value as { pathname: string; search?: string; hash?: string };
    return `${pathname}${search}${hash}`;
  }
  return null;
}

/** Why the bot check did not pass, as the sign-in screen says it. */
function captchaFailureText(check: Exclude<CaptchaCheck, { outcome: 'passed' }>): string {
  if (check.outcome === 'rejected') return check.reason ? MESSAGES.verificationFailed(check.reason) : MESSAGES.captchaFailed;
  if (check.outcome === 'service-error') return MESSAGES.captchaServiceError(check.status);
  return MESSAGES.captchaNetworkSignIn;
}

function signInFailureText(error: unknown): string {
  if (!(error instanceof ApiError)) return MESSAGES.unexpectedSignIn;
  switch (error.code) {
    case 'invalid_credentials':
      return MESSAGES.invalidCredentials;
    case 'email_not_confirmed':
      return MESSAGES.emailNotConfirmed;
    case 'user_banned':
      return MESSAGES.banned;
    case 'captcha_required':
      return MESSAGES.captchaRequired;
    case 'captcha_failed':
      return MESSAGES.captchaFailed;
    case 'rate_limited':
      return error.message;
    default:
      return MESSAGES.unexpectedSignIn;
  }
}

/** Everything the sign-in screen does (spec 4.1), apart from drawing it. */
export function useLoginFlow(entry: LoginEntry) {
  const navigate = useNavigate();
  const location = useLocation();
  const returnTo = readReturnTo(location.state);
  const status = useSession((s) => s.status);

  const [initializing, setInitializing] = useState(() => entry === 'mfa' || status === 'loading' || !!useSession.getState().session);
  const [step, setStep] = useState<LoginStep>('credentials');
  const [mandatory, setMandatory] = useState(false);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [otpEmail, setOtpEmail] = useState('');
  const [errors, setErrors] = useState<LoginFieldErrors>({});
  // One request at a time across the steps; its error is the banner above them.
  const submit = useSubmit();
  const { busy, fail } = submit;
  const [captchaRequired, setCaptchaRequired] = useState(false);
  const [captchaToken, setCaptchaToken] = useState<string | null>(null);
  const [captchaError, setCaptchaError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const captchaRef = useRef<CaptchaWidgetHandle>(null);
  const checked = useRef(false);

  /** Signed in: on to where the visitor was going; the form stays busy until this screen is gone. */
  const finish = (): typeof LEAVING => {
    // A password reset by staff comes first (the root layout would send them there anyway).
    const target = useSession.getState().requiresPasswordChange ? '/force-password-change' : (returnTo ?? DEFAULT_AFTER_LOGIN);
    void navigate(target, { replace: true });
    return LEAVING;
  };

  const goToTotpStep = (isMandatory: boolean) => {
    setPassword('');
    setCode('');
    setErrors({});
    setMandatory(isMandatory);
    setStep('totp');
  };

  /** Sends the e-mail code and moves to step 2; false when it could not be sent. */
  const goToEmailStep = async (address: string): Promise<boolean> => {
    try {
      await sendEmailOtp(address);
    } catch {
      return false;
    }
    setPassword('');
    setCode('');
    setErrors({});
    setOtpEmail(address);
    setStep('email');
    return true;
  };

  // A visitor who is already signed in: on, unless a second step is still owed.
  useEffect(() => {
    if (status !== 'ready' || checked.current) return;
    checked.current = true;
    const leaveForLogin = () => {
      if (entry === 'mfa') void navigate('/login', { replace: true });
      else setInitializing(false);
    };
    if (!useSession.getState().session) {
      leaveForLogin();
      return;
    }
    void (async () => {
      try {
        await fetchCurrentUser();
      } catch {
        // The stored copy of the user will do; a lost session shows up below.
      }
      const session = useSession.getState().session;
      if (!session) {
        leaveForLogin();
        return;
      }
      const pending = pendingSecondFactor(session);
      if (pending === 'totp') {
        goToTotpStep(true);
      } else if (pending === 'email') {
        if (!(await goToEmailStep(session.user.email))) fail(MESSAGES.emailOtpSendFailed);
      } else {
        finish();
        return;
      }
      setInitializing(false);
    })();
    // Runs once, when the stored session is known.
  }, [status]);

  /** After the password: the second step, a refusal, or done (spec 4.1, steps 1 to 4). */
  const continueAfterPassword = async (session: Session): Promise<void | typeof LEAVING> => {
    if (verifiedTotpFactor(session.user)) return goToTotpStep(false);
    let user: User;
    try {
      user = await fetchCurrentUser();
    } catch {
      await signOut();
      throw new Refusal(MESSAGES.userStatusUnknown);
    }
    if (isBanned(user)) {
      await signOut();
      throw new Refusal(MESSAGES.banned);
    }
    await logLoginDetails();
    const method = user.user_metadata.active_mfa_method;
    if (method === 'totp') return goToTotpStep(false);
    if (method === 'email') {
      if (await goToEmailStep(user.email)) return;
      await signOut();
      throw new Refusal(MESSAGES.emailOtpSendFailed);
    }
    return finish();
  };

  const submitCredentials = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    submit.clearError();
    setCaptchaError(null);
    const found = validateSignIn(email, password);
    const captchaMissing = captchaRequired && !captchaToken;
    setErrors(found);
    if (captchaMissing) setCaptchaError(MESSAGES.captchaRequired);
    if (hasErrors(found) || captchaMissing) {
      setAttempt((n) => n + 1);
      return;
    }

    const passed = await submit.run(async () => {
      if (captchaRequired && captchaToken) {
        const check = await verifyCaptchaToken(captchaToken);
        if (check.outcome !== 'passed') throw new Refusal(captchaFailureText(check));
      }
      let session: Session;
      try {
        session = await signInWithPassword(email, password, captchaRequired ? captchaToken : null);
      } catch (error) {
        if (error instanceof ApiError && (error.code === 'invalid_credentials' || error.code?.startsWith('captcha_'))) {
          setCaptchaRequired(true);
        }
        throw error;
      }
      if (!session?.access_token || !session.user) throw new Refusal(MESSAGES.sessionDataMissing);
      setSession(session);
      return continueAfterPassword(useSession.getState().session ?? session);
    }, signInFailureText);
    if (!passed) {
      // A failed sign-in voids the solved challenge (the server spends it).
      captchaRef.current?.reset();
      setCaptchaToken(null);
    }
  };

  /** What a code step checks before it sends: not while busy, and a code entered. False: stop. */
  const codeEntered = (event: FormEvent): boolean => {
    event.preventDefault();
    if (busy) return false;
    submit.clearError();
    if (!code) {
      setErrors({ code: MESSAGES.codeRequired });
      setAttempt((n) => n + 1);
      return false;
    }
    setErrors({});
    return true;
  };

  const submitTotp = async (event: FormEvent) => {
    if (!codeEntered(event)) return;
    const session = useSession.getState().session;
    if (!session) return fail(MESSAGES.sessionLost);
    const factor = verifiedTotpFactor(session.user);
    if (!factor) return fail(MESSAGES.noVerifiedFactor);
    await submit.run(
      async () => {
        let challengeId: string;
        try {
          const challenge = await createMfaChallenge(factor.id);
          if (!challenge?.id) throw new Error('no challenge id');
          challengeId = challenge.id;
        } catch {
          throw new Refusal(MESSAGES.challengeFailed);
        }
        try {
          setSession(await verifyMfaChallenge(factor.id, challengeId, code));
        } catch (error) {
          setCode('');
          throw error;
        }
        await logLoginDetails();
        return finish();
      },
      (error) =>
        error instanceof ApiError && error.code === 'mfa_verification_failed'
          ? MESSAGES.invalidTotpCode
          : // A spent recovery code says so: the owner knows that code is gone, not mistyped.
            error instanceof ApiError && error.code === 'recovery_code_used' && error.message
            ? error.message
            : MESSAGES.mfaFailed,
    );
  };

  const submitEmailCode = async (event: FormEvent) => {
    if (!codeEntered(event)) return;
    if (!useSession.getState().session) return fail(MESSAGES.sessionLost);
    await submit.run(
      async () => {
        try {
          setSession(await verifyEmailOtp(otpEmail, code));
        } catch (error) {
          setCode('');
          throw error;
        }
        await logLoginDetails();
        return finish();
      },
      (error) => (error instanceof ApiError && error.code !== 'otp_invalid' && error.message ? error.message : MESSAGES.invalidEmailCode),
    );
  };

  /** 'Back to Login' from an optional authenticator step: the half-signed-in session ends. */
  const backToCredentials = () => {
    if (step === 'totp' && mandatory) return;
    if (step === 'totp' || step === 'email') void signOut();
    setStep('credentials');
    setCode('');
    setErrors({});
    submit.clearError();
  };

  const openResetPanel = () => {
    submit.clearError();
    setErrors({});
    setStep('reset');
  };

  /** Editing a field clears what was said about it. */
  const edited = (field: keyof LoginFieldErrors) => setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));

  return {
    initializing: initializing || status === 'loading',
    step,
    mandatory,
    email,
    setEmail: (value: string) => {
      setEmail(value);
      edited('email');
    },
    password,
    setPassword: (value: string) => {
      setPassword(value);
      edited('password');
    },
    code,
    setCode: (value: string) => {
      setCode(value);
      edited('code');
    },
    otpEmail,
    errors,
    apiError: submit.error,
    busy,
    attempt,
    captchaRequired,
    captchaRef,
    setCaptchaToken: (token: string | null) => {
      setCaptchaToken(token);
      if (token) setCaptchaError(null);
    },
    captchaError,
    submitCredentials,
    submitTotp,
    submitEmailCode,
    backToCredentials,
    openResetPanel,
  };
}
