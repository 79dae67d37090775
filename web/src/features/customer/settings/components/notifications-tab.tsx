import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Banner } from '@/components/banner.js';
import { SkeletonRows } from '@/components/skeleton-rows.js';
import { SubmitMessages } from '@/components/submit-messages.js';
import { ApiError } from '@/lib/api-client.js';
import { useSubmit } from '@/lib/use-submit.js';
import {
  LOAD_FAILED,
  preferencesKey,
  SAVE_FAILED,
  saveNotificationPreferences,
  useNotificationPreferences,
  type NotificationPreferences,
} from '../api/notification-preferences.js';
const SAVED = 'Your notification preferences have been saved.';

type Key = keyof NotificationPreferences;
type Kind = { title: string; description: string; email: Key | 'always'; inApp: Key | 'always' };

/** What the app sends, kind by kind (ledger/notifications/preferences.ts); security cannot be turned off. */
const KINDS: Kind[] = [
  {
    title: 'Transaction updates',
    description: 'A deposit, withdrawal or send completes or fails, and money you receive. E-mails are off until you turn them on.',
    email: 'transactionsEmail',
    inApp: 'transactionsInApp',
  },
  {
    title: 'Account changes',
    description: 'A member of our staff changes what your account may do (send, swap, buy, sell, stake).',
    email: 'accountChangesEmail',
    inApp: 'accountChangesInApp',
  },
  {
    title: 'Security',
    description:
      'A sign-in from a new device, password and two-factor changes, a password reset or suspension by staff, a new deposit address. Always on, to keep your account safe.',
    email: 'always',
    inApp: 'always',
  },
];

function Choice({
  label,
  kind,
  value,
  onChange,
}: {
  label: string;
  kind: Key | 'always';
  value: NotificationPreferences;
  onChange: (key: Key, on: boolean) => void;
}) {
  const always = kind === 'always';
  return (
    <label className="notification-choice">
      <input
        type="checkbox"
        role="switch"
        checked={always || value[kind]}
        disabled={always}
        onChange={(e) => !always && onChange(kind, e.target.checked)}
      />
      {label}
    </label>
  );
}

/** Settings > Notifications: which mails and in-app notifications the customer gets. */
export function NotificationsTab() {
  const client = useQueryClient();
  const loaded = useNotificationPreferences();
  const saved = loaded.data ?? null;
  // The customer's edits; until the first one, the saved choices.
  const [edited, setDraft] = useState<NotificationPreferences | null>(null);
  const draft = edited ?? saved;
  // The saved notice stays until the next save.
  const submit = useSubmit({ successMs: null });
  const error = submit.error ?? (loaded.error ? LOAD_FAILED : null);

  const changed = Boolean(saved && draft && (Object.keys(saved) as Key[]).some((k) => saved[k] !== draft[k]));

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft || !changed) return;
    submit.reset();
    await submit.run(
      async () => {
        const next = await saveNotificationPreferences(draft);
        client.setQueryData(preferencesKey, next);
        setDraft(next);
        return SAVED;
      },
      (err) => (err instanceof ApiError && err.message ? err.message : SAVE_FAILED),
    );
  };

  return (
    <section aria-labelledby="notification-preferences-title">
      <div className="tab-head">
        <h2 id="notification-preferences-title" className="tab-head__title">
          Notifications
        </h2>
      </div>
      <p className="muted">Choose which e-mails and in-app notifications you get.</p>
      {!submit.error && error && <Banner variant="error">{error}</Banner>}
      <SubmitMessages submit={{ error: submit.error, success: submit.success }} />
      {!draft ? (
        !error && <SkeletonRows rows={3} label="Loading notification preferences..." />
      ) : (
        <form className="notification-kinds" onSubmit={(e) => void save(e)}>
          {KINDS.map((k) => (
            <fieldset key={k.title} className="notification-kind">
              <legend className="notification-kind__title">{k.title}</legend>
              <p className="notification-kind__description">{k.description}</p>
              <div className="notification-kind__choices">
                <Choice label="Email" kind={k.email} value={draft} onChange={(key, on) => setDraft({ ...draft, [key]: on })} />
                <Choice label="In-app" kind={k.inApp} value={draft} onChange={(key, on) => setDraft({ ...draft, [key]: on })} />
              </div>
            </fieldset>
          ))}
          <div>
            <button type="submit" className="button button--primary" disabled={!changed || submit.busy}>
              {submit.busy ? 'Saving...' : 'Save Preferences'}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
