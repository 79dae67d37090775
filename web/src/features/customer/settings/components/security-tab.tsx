import { ChangePasswordSection } from './change-password-section.js';
import { LoginHistorySection } from './login-history-section.js';
import { MfaSection } from './mfa-section.js';
import { SessionsSection } from './sessions-section.js';
import '../settings.css';

/** Settings > Security: multi-factor authentication, change password, active sessions, login history. */
export function SecurityTab() {
  return (
    <section aria-labelledby="security-title">
      <div className="tab-head">
        <h2 id="security-title" className="tab-head__title">
          Security
        </h2>
      </div>
      <div className="security-sections">
        <MfaSection />
        <ChangePasswordSection />
        <SessionsSection />
        <LoginHistorySection />
      </div>
    </section>
  );
}
