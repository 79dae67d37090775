import { useId, useState, type FormEvent } from 'react';
import { Banner } from '@/components/banner.js';
import { Button } from '@/components/button.js';
import { useSession } from '@/lib/session.js';
import { useSubmit } from '@/lib/use-submit.js';
import { createAnnouncement } from './api.js';

/** The success flag lasts 3 seconds (spec 002 section 4). */
const SUCCESS_MS = 3000;

/** Actions: an announcement to all of this manager's workers (spec 002). */
export function ActionsTab() {
  const managerId = useSession((s) => s.user?.id ?? null);
  const [message, setMessage] = useState('');
  const sending = useSubmit({ successMs: SUCCESS_MS });
  const fieldId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    sending.clearError();
    if (!managerId) return sending.fail('You must be logged in to send announcements.');
    if (!message.trim()) return;
    await sending.run(
      async () => {
        await createAnnouncement(managerId, message.trim());
        setMessage('');
        return 'Announcement sent successfully!';
      },
      () => 'Failed to send announcement. Please try again.',
    );
  };

  return (
    <section className="card staff-card staff-card--narrow" aria-labelledby="actions-title">
      <h2 id="actions-title" className="card__title">
        Send Announcement
      </h2>
      <p className="card__subtitle">Your announcement is shown to all your workers at the top of their dashboard.</p>
      <form className="form" onSubmit={submit} noValidate>
        <div className="field">
          <label className="field__label" htmlFor={fieldId}>
            Announcement
          </label>
          <textarea
            id={fieldId}
            className="field__input field__textarea"
            rows={5}
            maxLength={2000}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            placeholder="Write a message for all your workers..."
            required
          />
        </div>
        {sending.error && <Banner variant="error">{sending.error}</Banner>}
        {sending.success && <Banner variant="success">{sending.success}</Banner>}
        <Button type="submit" loading={sending.busy} loadingText="Sending..." disabled={!message.trim()}>
          Send Announcement
        </Button>
      </form>
    </section>
  );
}
