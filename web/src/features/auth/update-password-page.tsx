import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ApiError } from '@/lib/api-client.js';
import type { Session } from '@/lib/auth-types.js';
import { useFocusFirstError } from '@/lib/use-focus-first-error.js';
import { Refusal, useSubmit } from '@/lib/use-submit.js';
import { Banner } from '@/components/banner.js';
import { Button } from '@/components/button.js';
import { NewPasswordFields } from '@/components/new-password-fields.js';
import { SubmitMessages } from '@/components/submit-messages.js';
import { endSession, updatePassword, verifyRecoveryToken } from './api/password.js';
import { AuthLayout } from './components/auth-layout.js';
import { MESSAGES } from './utils/messages.js';
import { hasErrors, validateNewPassword, type FieldErrors } from './utils/validation.js';

const REDIRECT_AFTER_MS = 3_000;
const RECOVERY_KEY = 'wallet-ledger.recovery';

/** The reset link's `#type=recovery&token=…`, if this page was opened from one. */
function recoveryTokenFromUrl(): string | null {
  const params = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  const token = params.get('token');
  return params.get('type') === 'recovery' && token ? token : null;
}

/*
 * A reset token is single use: remember what it was traded for, so a second render
 * (or a reload of the page) does not spend it again.
 */
const exchanges = new Map<string, Promise<Session>>();

function recoverySessionFor(token: string): Promise<Session> {
  let pending = exchanges.get(token);
  if (!pending) {
    try {
      const kept = JSON.parse(window.sessionStorage.getItem(RECOVERY_KEY) ?? 'null') as { token?: string; session?: Session } | null;
      if (kept?.token === token && kept.session) pending = Promise.resolve(kept.session);
    } catch {
      // Nothing usable kept.
    }
    pending ??= verifyRecoveryToken(token).then((session) => {
      try {
        window.sessionStorage.setItem(RECOVERY_KEY, JSON.stringify({ token, session }));
      } catch {
        // The page then only works until it is reloaded.
      }
      return session;
    });
    exchanges.set(token, pending);
  }
  return pending;
}

function forgetRecovery(token: string): void {
  exchanges.delete(token);
  try {
    window.sessionStorage.removeItem(RECOVERY_KEY);
  } catch {
    // Nothing to forget.
  }
}

type LinkState = 'checking' | 'ready' | 'missing' | 'invalid';

/** /update-password: the page a reset e-mail leads to (spec 2.5, first page). */
export function UpdatePasswordPage() {
  const navigate = useNavigate();
  const [token, setToken] = useState(recoveryTokenFromUrl);
  const [linkState, setLinkState] = useState<LinkState>(token ? 'checking' : 'missing');

  // A link opened in a tab that already shows this page changes only the hash.
  useEffect(() => {
    const onHashChange = () => {
      const next = recoveryTokenFromUrl();
      if (!next) return;
      setToken(next);
      setLinkState('checking');
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);
  const [recovery, setRecovery] = useState<Session | null>(null);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<FieldErrors<'password' | 'confirm'>>({});
  // The success message stays until the page moves on to sign-in: done once it shows.
  const submit = useSubmit({ successMs: null });
  const done = submit.success !== null;
  const [attempt, setAttempt] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstError(formRef, attempt);

  useEffect(() => {
    if (!token) return;
    recoverySessionFor(token).then(
      (session) => {
        setRecovery(session);
        setLinkState('ready');
      },
      () => {
        exchanges.delete(token);
        setLinkState('invalid');
      },
    );
  }, [token]);

  useEffect(() => {
    if (!done) return;
    const timer = window.setTimeout(() => void navigate('/login', { replace: true }), REDIRECT_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, [done, navigate]);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (submit.busy || done) return;
    submit.clearError();
    const found = validateNewPassword(password, confirm);
    setErrors(found);
    if (hasErrors(found)) {
      setAttempt((n) => n + 1);
      return;
    }
    if (!recovery || !token) return submit.fail(MESSAGES.invalidResetLink);
    await submit.run(
      async () => {
        try {
          await updatePassword(password, recovery.access_token);
        } catch (error) {
          if (error instanceof ApiError && error.code === 'weak_password') {
            setErrors({ password: MESSAGES.passwordRequirementsNotMet });
            setAttempt((n) => n + 1);
            throw new Refusal(error.message);
          }
          if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
            forgetRecovery(token);
            throw new Refusal(MESSAGES.invalidResetLink);
          }
          throw error;
        }
        // The recovery session has done its one job; the user signs in with the new password.
        endSession(recovery.access_token);
        forgetRecovery(token);
        window.history.replaceState(window.history.state, '', window.location.pathname);
        setPassword('');
        setConfirm('');
        return MESSAGES.passwordUpdated;
      },
      () => MESSAGES.passwordUpdateFailed,
    );
  };

  const footer = (
    <>
      Remembered it? <Link to="/login">Sign In</Link>
    </>
  );

  if (linkState === 'missing' || linkState === 'invalid') {
    return (
      <AuthLayout title="Set New Password" footer={footer}>
        <Banner variant="error">{linkState === 'missing' ? MESSAGES.noResetLink : MESSAGES.invalidResetLink}</Banner>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Set New Password" footer={footer}>
      <SubmitMessages submit={submit} />
      <form ref={formRef} className="form" noValidate onSubmit={(e) => void send(e)} aria-label="Set new password">
        <NewPasswordFields
          name="password"
          value={password}
          onChange={(value) => {
            setPassword(value);
            setErrors((found) => ({ ...found, password: undefined }));
          }}
          error={errors.password}
          confirm={{
            name: 'confirm',
            value: confirm,
            onChange: (value) => {
              setConfirm(value);
              setErrors((found) => ({ ...found, confirm: undefined }));
            },
            error: errors.confirm,
          }}
          disabled={done}
          autoFocus
        />
        <Button
          type="submit"
          className="button--block"
          loading={submit.busy || linkState === 'checking'}
          loadingText={linkState === 'checking' ? 'Checking link...' : 'Updating...'}
          disabled={done}
        >
          Update Password
        </Button>
      </form>
    </AuthLayout>
  );
}
