import { useState } from 'react';
import { REASON_MAX } from '@ledger/contract/staff-users.js';
import { Button } from '@/components/button.js';
import { SubmitMessages } from '@/components/submit-messages.js';
import { useSubmit } from '@/lib/use-submit.js';
import { profileApi } from './api/calls.js';
import { useProfileCommand } from './api/queries.js';

/**
 * Issue 29: a manager (their team's customers) or an admin removes a customer's second factor
 * when the customer lost it and their recovery codes. The reason is recorded and mailed to the customer.
 */
export function MfaCard({ userId }: { userId: string }) {
  const [reason, setReason] = useState('');
  const submit = useSubmit({ successMs: 4000 });
  const command = useProfileCommand(userId, (why: string) => profileApi.removeMfa(userId, why), { refreshDetails: false });
  const send = () => {
    if (!reason.trim()) return submit.fail('Please give a reason for removing two-factor authentication.');
    void submit.run(async () => {
      await command.mutateAsync(reason.trim());
      setReason('');
      return 'Two-factor authentication removed. The customer has been informed by e-mail.';
    }, 'Failed to remove two-factor authentication.');
  };
  return (
    <section className="card profile-card" aria-labelledby="mfa-reset-title">
      <h2 id="mfa-reset-title" className="card__title">
        Remove Two-Factor Authentication
      </h2>
      <SubmitMessages submit={submit} />
      <p className="muted">
        For a customer who lost their authenticator app and recovery codes, once you have checked who they are. They can then sign in with
        their password alone.
      </p>
      <div className="field">
        <label className="field__label" htmlFor="mfa-reset-reason">
          Reason (recorded and sent to the customer)
        </label>
        <textarea
          id="mfa-reset-reason"
          className="field__input profile-textarea"
          rows={2}
          maxLength={REASON_MAX}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </div>
      <div className="actions">
        <Button variant="danger" onClick={send} loading={submit.busy} loadingText="Removing...">
          Remove Two-Factor Authentication
        </Button>
      </div>
    </section>
  );
}
