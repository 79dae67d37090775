import { useEffect, useId, useState, type FormEvent } from 'react';
import { Banner } from '../../../components/banner.js';
import { Button } from '../../../components/button.js';
import { useSession } from '../../../lib/session.js';
import { createAnnouncement } from './api.js';

/** The success flag lasts 3 seconds (spec 002 section 4). */
const SUCCESS_MS = 3000;

/** Actions: an announcement to all of this manager's workers (spec 002). */
export function ActionsTab() {
  const managerId = useSession((s) => s.user?.id ?? null);
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [sending, setSending] = useState(false);
  const fieldId = useId();

  useEffect(() => {
    if (!sent) return;
    const timer = window.setTimeout(() => setSent(false), SUCCESS_MS);
    return () => window.clearTimeout(timer);
  }, [sent]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!managerId) {
      setError('You must be logged in to send announcements.');
      return;
    }
    if (!message.trim()) return;
    setSending(true);
    try {
      await createAnnouncement(managerId, message.trim());
      setMessage('');
      setSent(true);
    } catch {
      setError('Failed to send announcement. Please try again.');
    } finally {
      setSending(false);
    }
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
        {error && <Banner variant="error">{error}</Banner>}
        {sent && <Banner variant="success">Announcement sent successfully!</Banner>}
        <Button type="submit" loading={sending} loadingText="Sending..." disabled={!message.trim()}>
          Send Announcement
        </Button>
      </form>
    </section>
  );
}
