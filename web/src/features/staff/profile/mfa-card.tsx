import { useState } from 'react';
import { Banner } from '../../../components/banner.js';
import { Button } from '../../../components/button.js';
import { errorText, profileApi } from './api.js';
import { useFlash } from './use-flash.js';

const REASON_MAX = 500;

/**
 * Issue 29: a manager (their team's customers) or an admin removes a customer's second factor
 * when the customer lost it and their recovery codes. The reason is recorded and mailed to the customer.
 */
export function MfaCard({ userId }: { userId: string }) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [success, setSuccess] = useFlash(4000);
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    setError(null);
    if (!reason.trim()) return setError('Please give a reason for removing two-factor authentication.');
    setBusy(true);
    try {
      await profileApi.removeMfa(userId, reason.trim());
      setReason('');
      setSuccess('Two-factor authentication removed. The customer has been informed by e-mail.');
    } catch (e) {
      setError(errorText(e, 'Failed to remove two-factor authentication.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card profile-card" aria-labelledby="mfa-reset-title">
      <h2 id="mfa-reset-title" className="card__title">
        Remove Two-Factor Authentication
      </h2>
      {success && <Banner variant="success">{success}</Banner>}
      {error && <Banner variant="error">{error}</Banner>}
      <p className="muted">For a customer who lost their authenticator app and recovery codes, once you have checked who they are. They can then sign in with their password alone.</p>
      <div className="field">
        <label className="field__label" htmlFor="mfa-reset-reason">
          Reason (recorded and sent to the customer)
        </label>
        <textarea id="mfa-reset-reason" className="field__input profile-textarea" rows={2} maxLength={REASON_MAX} value={reason} onChange={(e) => setReason(e.target.value)} />
      </div>
      <div className="actions">
        <Button variant="danger" onClick={() => void submit()} loading={busy} loadingText="Removing...">
          Remove Two-Factor Authentication
        </Button>
      </div>
    </section>
  );
}
