import { Link, useSearchParams } from 'react-router-dom';
import { Banner } from '@/components/banner.js';
import { AuthLayout, AuthStatus } from './components/auth-layout.js';
import { CredentialsStep } from './components/credentials-step.js';
import { EmailCodeStep } from './components/email-code-step.js';
import { ResetPasswordPanel } from './components/reset-password-panel.js';
import { TotpStep } from './components/totp-step.js';
import { useLoginFlow, type LoginEntry } from './hooks/use-login-flow.js';
import { MESSAGES } from './utils/messages.js';

function SignInScreen({ entry }: { entry: LoginEntry }) {
  const flow = useLoginFlow(entry);
  const [searchParams] = useSearchParams();

  if (flow.initializing) return <AuthStatus>Initializing...</AuthStatus>;

  const showFooter = flow.step === 'credentials' || flow.step === 'reset';
  const confirmed = searchParams.get('confirmed') === '1';
  const confirmFailed = searchParams.get('confirm_error') === '1';

  return (
    <AuthLayout
      title="Login to Your Wallet"
      tagline="Simple. Fast. Secure"
      documentTitle="Sign In"
      footer={
        showFooter && (
          <>
            Don't have an account? <Link to="/register">Sign Up</Link>
          </>
        )
      }
    >
      {flow.step === 'credentials' && confirmed && !flow.apiError && <Banner variant="success">{MESSAGES.emailConfirmed}</Banner>}
      {flow.step === 'credentials' && confirmFailed && !flow.apiError && <Banner variant="error">{MESSAGES.emailConfirmFailed}</Banner>}
      {flow.apiError && flow.step !== 'reset' && <Banner variant="error">{flow.apiError}</Banner>}

      {flow.step === 'credentials' && (
        <CredentialsStep
          email={flow.email}
          onEmailChange={flow.setEmail}
          password={flow.password}
          onPasswordChange={flow.setPassword}
          errors={flow.errors}
          attempt={flow.attempt}
          busy={flow.busy}
          captchaRequired={flow.captchaRequired}
          captchaRef={flow.captchaRef}
          onCaptchaToken={flow.setCaptchaToken}
          captchaError={flow.captchaError}
          onSubmit={(e) => void flow.submitCredentials(e)}
          onForgotPassword={flow.openResetPanel}
        />
      )}
      {flow.step === 'totp' && (
        <TotpStep
          mandatory={flow.mandatory}
          code={flow.code}
          onCodeChange={flow.setCode}
          error={flow.errors.code}
          attempt={flow.attempt}
          busy={flow.busy}
          onSubmit={(e) => void flow.submitTotp(e)}
          onBack={flow.backToCredentials}
        />
      )}
      {flow.step === 'email' && (
        <EmailCodeStep
          sentTo={flow.otpEmail}
          code={flow.code}
          onCodeChange={flow.setCode}
          error={flow.errors.code}
          attempt={flow.attempt}
          busy={flow.busy}
          onSubmit={(e) => void flow.submitEmailCode(e)}
        />
      )}
      {flow.step === 'reset' && <ResetPasswordPanel initialEmail={flow.email} onBack={flow.backToCredentials} />}
    </AuthLayout>
  );
}

/** /login: the sign-in screen at its credentials step. */
export function LoginPage() {
  return <SignInScreen entry="credentials" />;
}

/** /verify-mfa: the sign-in screen at its second-factor step. */
export function VerifyMfaPage() {
  return <SignInScreen entry="mfa" />;
}
