import { ChangePasswordSection } from './change-password-section.js';
import { LoginHistorySection } from './login-history-section.js';
import { MfaSection } from './mfa-section.js';
import '../settings.css';

/** Settings > Security: multi-factor authentication, change password, login history. */
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
        <LoginHistorySection />
      </div>
    </section>
  );
}
