import { useEffect, useState, type FormEvent } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { ApiError } from '@/lib/api-client.js';
import { updateUser, useSession } from '@/lib/session.js';
import { Refusal, useSubmit } from '@/lib/use-submit.js';
import { Button } from '@/components/button.js';
import { NewPasswordFields } from '@/components/new-password-fields.js';
import { SubmitMessages } from '@/components/submit-messages.js';
import { clearPasswordChangeFlag, updatePassword } from './api/password.js';
import { AuthLayout, AuthStatus } from './components/auth-layout.js';
import { MESSAGES } from './utils/messages.js';
import { forcedPasswordError } from './utils/validation.js';

const REDIRECT_AFTER_MS = 1_500;

/** What a refused new password shows: the server's words for its own refusals (4xx). */
function updateFailureText(error: unknown): string {
  if (!(error instanceof ApiError) || error.status === null) return MESSAGES.passwordUpdateFailed;
  // The server's rule text: too short, no digit, or too common (password-policy.ts).
  if (error.code === 'weak_password') return error.message || MESSAGES.passwordTooShort;
  return error.status < 500 && error.message ? error.message : MESSAGES.passwordUpdateFailed;
}

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
  // The success message stays until the page moves on: done once it shows.
  const submit = useSubmit({ successMs: null });
  const done = submit.success !== null;

  useEffect(() => {
    if (!done) return;
    const timer = window.setTimeout(() => void navigate('/dashboard/overview', { replace: true }), REDIRECT_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, [done, navigate]);

  if (status === 'loading') return <AuthStatus>Loading Authentication...</AuthStatus>;
  if (!signedIn) return <Navigate to="/login" replace />;

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (submit.busy || done) return;
    submit.reset();
    const problem = forcedPasswordError(password, confirm);
    setFormError(problem ?? null);
    if (problem) {
      document.getElementById('force-new-password')?.focus();
      return;
    }
    await submit.run(async () => {
      let user = await updatePassword(password);
      setPassword('');
      setConfirm('');
      if (user.user_metadata.requires_password_change) {
        // The server normally clears the flag with the password; if not, ask for it once.
        user = await clearPasswordChangeFlag().catch(() => user);
      }
      if (user.user_metadata.requires_password_change) throw new Refusal(MESSAGES.forcedFlagNotCleared);
      updateUser(user);
      return MESSAGES.forcedUpdated;
    }, updateFailureText);
  };

  return (
    <AuthLayout title="Change Your Password" documentTitle="Password Change Required">
      <p className="form__text auth-card__lead">{LEAD[reason]}</p>
      <SubmitMessages submit={submit} />
      <form className="form" noValidate onSubmit={(e) => void send(e)} aria-label="Set a new password">
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
        <Button type="submit" className="button--block" loading={submit.busy} loadingText="Updating Password..." disabled={done}>
          Set New Password
        </Button>
      </form>
    </AuthLayout>
  );
}
