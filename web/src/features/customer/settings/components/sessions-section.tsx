import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Banner } from '@/components/banner.js';
import { Button } from '@/components/button.js';
import { Modal } from '@/components/modal.js';
import { SkeletonRows } from '@/components/skeleton-rows.js';
import { describeDevice } from '@/lib/device.js';
import { formatListDateTime } from '@/lib/money.js';
import { ApiError, messageOf } from '@/lib/api-client.js';
import { useSubmit } from '@/lib/use-submit.js';
import { endSession, SESSIONS_FAILED, sessionsKey, useSessions, type AccountSession } from '../api/sessions.js';

const END_FAILED = 'Failed to end the session.';

/** The app's list format ('dd MMM yyyy | HH:mm'), the raw text when it is no date. */
const when = (iso: string) => formatListDateTime(iso) || iso;

/** Settings > Security > Active Sessions: where the account is signed in; any other one can be ended. */
export function SessionsSection() {
  const client = useQueryClient();
  const sessions = useSessions();
  const rows = sessions.data ?? null;
  const submit = useSubmit();
  const error = submit.error ?? (sessions.error ? SESSIONS_FAILED : null);
  // The session the owner chose to end, asked about before anything is sent.
  const [asking, setAsking] = useState<AccountSession | null>(null);

  const end = (id: string) =>
    submit.run(
      async () => {
        try {
          await endSession(id);
        } catch (err) {
          // The list may have changed meanwhile: read it again behind the error.
          void client.invalidateQueries({ queryKey: sessionsKey });
          throw err;
        }
        client.setQueryData<AccountSession[]>(sessionsKey, (current) => current?.filter((s) => s.id !== id));
      },
      (err) => messageOf(err instanceof ApiError ? err.body : null, END_FAILED),
      id,
    );

  return (
    <section className="security-section" aria-labelledby="sessions-title">
      <h3 id="sessions-title" className="security-section__title">
        Active Sessions
      </h3>
      {error && <Banner variant="error">{error}</Banner>}
      {rows === null ? (
        !error && <SkeletonRows rows={2} label="Loading sessions..." />
      ) : (
        <div className="table-scroll sessions__scroll">
          <table className="history-table table--stack">
            <thead>
              <tr>
                <th scope="col">Signed In</th>
                <th scope="col">Last Active</th>
                <th scope="col">IP Address</th>
                <th scope="col">Client</th>
                <th scope="col">
                  <span className="visually-hidden">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((s) => (
                <tr key={s.id}>
                  <td data-label="Signed In" className="history-table__when">
                    {when(s.created_at)}
                  </td>
                  <td data-label="Last Active" className="history-table__when">
                    {when(s.last_active_at)}
                  </td>
                  <td data-label="IP Address" className="mono">
                    {s.ip_address ?? 'Unknown'}
                  </td>
                  <td data-label="Client" className="history-table__client" title={s.user_agent ?? undefined}>
                    {describeDevice(s.user_agent)}
                  </td>
                  <td className="history-table__action">
                    {s.current ? (
                      <span className="sessions__current">This device</span>
                    ) : (
                      <button
                        type="button"
                        className="button button--secondary"
                        disabled={submit.busy}
                        aria-label={`End session signed in ${when(s.created_at)}`}
                        onClick={() => setAsking(s)}
                      >
                        {submit.busyWith === s.id ? 'Ending...' : 'End'}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Modal
        open={asking !== null}
        onClose={() => !submit.busy && setAsking(null)}
        title="End Session"
        size="small"
        footer={
          <>
            <Button variant="secondary" onClick={() => setAsking(null)} disabled={submit.busy}>
              Cancel
            </Button>
            <Button
              variant="danger"
              loading={submit.busy}
              loadingText="Ending..."
              onClick={() => {
                const id = asking?.id;
                if (!id) return;
                void end(id).finally(() => setAsking(null));
              }}
            >
              End Session
            </Button>
          </>
        }
      >
        {asking && (
          <p>
            End the session of <strong>{describeDevice(asking.user_agent)}</strong> signed in {when(asking.created_at)}? That device is
            signed out at its next request.
          </p>
        )}
      </Modal>
    </section>
  );
}
