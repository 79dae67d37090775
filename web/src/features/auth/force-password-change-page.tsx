import { useEffect, useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { ApiError } from '@/lib/api-client.js';
import { updateUser, useSession } from '@/lib/session.js';
import { Banner } from '@/components/banner.js';
import { Button } from '@/components/button.js';
import { NewPasswordFields } from '@/components/new-password-fields.js';
import { clearPasswordChangeFlag, updatePassword } from './api/password.js';
import { AuthLayout, AuthStatus } from './components/auth-layout.js';
import { MESSAGES } from './utils/messages.js';
import { forcedPasswordError } from './utils/validation.js';

const REDIRECT_AFTER_MS = 1_500;

/** The lead line, by why the change is asked for (the server says, with the user). */
const LEAD = {
  reset: 'Your password was reset by our support team. Please choose a new password to continue.',
  new_account: 'Welcome! Your account was set up with a temporary password. Please choose your own password to continue.',
  unknown: 'Please choose a new password to continue.',
} as const;

/** /force-password-change: after staff reset the password, or at a staff account's first sign-in, the user must choose a new one (spec 2.5). */
export function ForcePasswordChangePage() {
  const navigate = useNavigate();
  const status = useSession((s) => s.status);
  const signedIn = useSession((s) => s.session !== null);
  const reason = useSession((s) => s.user?.user_metadata.password_change_reason ?? 'unknown');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const [apiError, setApiError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (!done) return;
    const timer = window.setTimeout(() => void navigate('/dashboard/overview', { replace: true }), REDIRECT_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, [done, navigate]);

  if (status === 'loading') return <AuthStatus>Loading Authentication...</AuthStatus>;
  if (!signedIn) return <Navigate to="/login" replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || done) return;
    setApiError(null);
    setSuccess(null);
    const problem = forcedPasswordError(password, confirm);
    setFormError(problem ?? null);
    if (problem) {
      document.getElementById('force-new-password')?.focus();
      return;
    }
    setBusy(true);
    try {
      let user = await updatePassword(password);
      setPassword('');
      setConfirm('');
      if (user.user_metadata.requires_password_change) {
        // The server normally clears the flag with the password; if not, ask for it once.
        user = await clearPasswordChangeFlag().catch(() => user);
      }
      if (user.user_metadata.requires_password_change) {
        setApiError(MESSAGES.forcedFlagNotCleared);
        setBusy(false);
        return;
      }
      updateUser(user);
      setSuccess(MESSAGES.forcedUpdated);
      setDone(true);
    } catch (error) {
      setApiError(
        // The server's rule text: too short, no digit, or too common (password-policy.ts).
        error instanceof ApiError && error.status !== null && error.code === 'weak_password'
          ? error.message || MESSAGES.passwordTooShort
          : error instanceof ApiError && error.status !== null && error.status < 500 && error.message
            ? error.message
            : MESSAGES.passwordUpdateFailed,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout title="Change Your Password" documentTitle="Password Change Required">
      <p className="form__text auth-card__lead">{LEAD[reason]}</p>
      {apiError && <Banner variant="error">{apiError}</Banner>}
      {success && <Banner variant="success">{success}</Banner>}
      <form className="form" noValidate onSubmit={(e) => void submit(e)} aria-label="Set a new password">
        <NewPasswordFields
          id="force-new-password"
          name="password"
          value={password}
          onChange={(value) => {
            setPassword(value);
            setFormError(null);
          }}
          confirm={{
            name: 'confirm',
            value: confirm,
            onChange: (value) => {
              setConfirm(value);
              setFormError(null);
            },
          }}
          sharedError={{ id: 'force-password-error', message: formError }}
          disabled={done}
          autoFocus
        />
        <Button type="submit" className="button--block" loading={busy} loadingText="Updating Password..." disabled={done}>
          Set New Password
        </Button>
      </form>
    </AuthLayout>
  );
}
