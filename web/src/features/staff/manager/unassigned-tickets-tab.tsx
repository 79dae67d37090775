import { useCallback, useEffect, useState } from 'react';
import { Banner } from '@/components/banner.js';
import { Button } from '@/components/button.js';
import { Pager } from '@/components/pager.js';
import { SkeletonRows } from '@/components/skeleton-rows.js';
import { ApiError, getJson, postJson } from '@/lib/api-client.js';
import { useSession } from '@/lib/session.js';
import { TICKETS_PER_PAGE, URGENCY_LABEL, type Ticket } from '@/components/tickets/api.js';
import '@/components/tickets/tickets.css';
import { formatListDate } from '../shared/route-tabs.js';
import { listWorkers, type Worker } from './api.js';
import './unassigned-tickets.css';
import { ScrollArea } from '@/components/scroll-area.js';

type Queue = { tickets: Ticket[]; userEmails: Record<string, string>; totalCount: number };

function unassignedTickets(page: number, signal?: AbortSignal) {
  return getJson<Queue>(`api/v1/support-tickets/unassigned?page=${page}&perPage=${TICKETS_PER_PAGE}`, { signal });
}

function assignTicket(ticketId: string, workerId: string) {
  return postJson<{ success: boolean; ticket: Ticket }>('functions/v1/assign-ticket', { ticketId, workerId });
}

function messageOf(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.status !== null ? err.message : fallback;
}

/**
 * /dashboard/manager/unassigned-tickets: tickets of customers no worker owns yet, oldest
 * first, 5 per page (docs/api-support.md). The manager gives each to one of their own workers.
 */
export function UnassignedTicketsTab() {
  const managerId = useSession((s) => s.user?.id ?? null);
  const [page, setPage] = useState(1);
  const [queue, setQueue] = useState<Queue | null>(null);
  const [loading, setLoading] = useState(true);
  const [workers, setWorkers] = useState<Worker[]>([]);
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const [assigning, setAssigning] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [reload, setReload] = useState(0);

  useEffect(() => {
    if (!managerId) return;
    let cancelled = false;
    listWorkers(managerId)
      .then((list) => !cancelled && setWorkers(list))
      .catch((err: unknown) => !cancelled && setError(`Failed to load workers: ${messageOf(err, 'unknown error')}`));
    return () => {
      cancelled = true;
    };
  }, [managerId]);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    unassignedTickets(page, controller.signal)
      .then((answer) => {
        // The last ticket of a later page was assigned: step back to a page that has rows.
        const pages = Math.max(1, Math.ceil(answer.totalCount / TICKETS_PER_PAGE));
        if (page > pages) setPage(pages);
        setQueue(answer);
        setLoading(false);
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setError(messageOf(err, 'Failed to fetch unassigned tickets.'));
        setLoading(false);
      });
    return () => controller.abort();
  }, [page, reload]);

  const assign = useCallback(
    async (ticket: Ticket) => {
      const workerId = chosen[ticket.id] ?? '';
      setError(null);
      setSuccess(null);
      if (!workerId) {
        setError('Please choose a worker.');
        return;
      }
      setAssigning(ticket.id);
      try {
        await assignTicket(ticket.id, workerId);
        const worker = workers.find((w) => w.id === workerId);
        setSuccess(`Ticket "${ticket.subject}" assigned to ${worker?.full_name || worker?.email || 'the worker'}.`);
      } catch (err) {
        setError(messageOf(err, 'Failed to assign ticket.'));
      } finally {
        setAssigning(null);
        setReload((n) => n + 1);
      }
    },
    [chosen, workers],
  );

  const pageCount = Math.max(1, Math.ceil((queue?.totalCount ?? 0) / TICKETS_PER_PAGE));
  const rows = queue?.tickets ?? [];
  return (
    <section className="card staff-card" aria-labelledby="unassigned-tickets-title">
      <h2 id="unassigned-tickets-title" className="card__title">
        Unassigned Tickets
      </h2>
      {success && <Banner variant="success">{success}</Banner>}
      {error && <Banner variant="error">{error}</Banner>}
      <ScrollArea className="staff-table-wrap" label="Unassigned tickets">
        <table className="staff-table table--stack">
          <thead>
            <tr>
              <th scope="col">Subject</th>
              <th scope="col">Customer Email</th>
              <th scope="col">Urgency</th>
              <th scope="col">Created</th>
              <th scope="col">Assign To</th>
            </tr>
          </thead>
          {!loading && rows.length > 0 && (
            <tbody>
              {rows.map((t) => {
                const email = queue?.userEmails[t.user_id] ?? 'N/A';
                return (
                  <tr key={t.id}>
                    <td data-label="Subject">{t.subject}</td>
                    <td data-label="Customer Email">{email}</td>
                    <td data-label="Urgency">
                      <span className={`ticket-urgency ticket-urgency--${t.urgency}`}>{URGENCY_LABEL[t.urgency]}</span>
                    </td>
                    <td data-label="Created">{formatListDate(t.created_at)}</td>
                    <td className="staff-table__actions">
                      <div className="ticket-assign">
                        <select
                          className="field__input"
                          aria-label={`Worker for ${t.subject}`}
                          value={chosen[t.id] ?? ''}
                          disabled={workers.length === 0 || assigning !== null}
                          onChange={(e) => setChosen((c) => ({ ...c, [t.id]: e.target.value }))}
                        >
                          <option value="">{workers.length === 0 ? 'No workers' : 'Choose a worker...'}</option>
                          {workers.map((w) => (
                            <option key={w.id} value={w.id}>
                              {w.full_name || w.email}
                            </option>
                          ))}
                        </select>
                        <Button
                          variant="secondary"
                          loading={assigning === t.id}
                          loadingText="Assigning..."
                          disabled={assigning !== null || !chosen[t.id]}
                          onClick={() => assign(t)}
                        >
                          Assign
                        </Button>
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          )}
        </table>
        {loading && <SkeletonRows rows={5} columns={5} label="Loading tickets..." />}
      </ScrollArea>
      {!loading && queue && rows.length === 0 && <p className="empty-text">No unassigned tickets.</p>}
      {queue && <Pager page={page} pageCount={pageCount} onPageChange={setPage} total={queue.totalCount} disabled={loading} />}
    </section>
  );
}
