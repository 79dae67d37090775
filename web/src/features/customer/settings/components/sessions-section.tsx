import { useCallback, useEffect, useState } from 'react';
import { Banner } from '@/components/banner.js';
import { SkeletonRows } from '@/components/skeleton-rows.js';
import { describeDevice } from '@/lib/device.js';
import { formatListDateTime } from '@/lib/money.js';
import { messageOf } from '@/lib/api-client.js';
import { endSession, fetchSessions, type AccountSession } from '../api/sessions.js';

const LOAD_FAILED = 'Failed to load sessions.';
const END_FAILED = 'Failed to end the session.';

/** The app's list format ('dd MMM yyyy | HH:mm'), the raw text when it is no date. */
const when = (iso: string) => formatListDateTime(iso) || iso;

/** Settings > Security > Active Sessions: where the account is signed in; any other one can be ended. */
export function SessionsSection() {
  const [rows, setRows] = useState<AccountSession[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [ending, setEnding] = useState<string | null>(null);

  const load = useCallback((signal?: AbortSignal) => {
    fetchSessions(signal)
      .then((sessions) => {
        setRows(Array.isArray(sessions) ? sessions : []);
        setError(null);
      })
      .catch(() => {
        if (!signal?.aborted) setError(LOAD_FAILED);
      });
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load]);

  const end = async (id: string) => {
    setEnding(id);
    try {
      await endSession(id);
      setRows((current) => current?.filter((s) => s.id !== id) ?? null);
      setError(null);
    } catch (err) {
      setError(messageOf((err as { body?: unknown }).body, END_FAILED));
      load();
    } finally {
      setEnding(null);
    }
  };

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
                        disabled={ending !== null}
                        aria-label={`End session signed in ${when(s.created_at)}`}
                        onClick={() => void end(s.id)}
                      >
                        {ending === s.id ? 'Ending...' : 'End'}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
