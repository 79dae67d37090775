import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import type { AssignTicketBody, TicketChange } from '@ledger/contract/tickets.js';
import { Banner } from '@/components/banner.js';
import { Button } from '@/components/button.js';
import { Pager } from '@/components/pager.js';
import { SkeletonRows } from '@/components/skeleton-rows.js';
import { postJson } from '@/lib/api-client.js';
import { errorMessage } from '@/lib/error-text.js';
import { useSession } from '@/lib/session.js';
import { useSubmit } from '@/lib/use-submit.js';
import { ticketKeys, TICKETS_PER_PAGE, URGENCY_LABEL, useUnassignedTickets, type Ticket } from '@/components/tickets/api.js';
import '@/components/tickets/tickets.css';
import { listDate } from '../shared/route-tabs.js';
import { useWorkerChoices } from './api.js';
import './unassigned-tickets.css';
import { ScrollArea } from '@/components/scroll-area.js';

function assignTicket(ticketId: string, workerId: string) {
  const body: z.input<typeof AssignTicketBody> = { ticketId, workerId };
  return postJson<z.infer<typeof TicketChange>>('functions/v1/assign-ticket', body);
}

/**
 * /dashboard/manager/unassigned-tickets: tickets of customers no worker owns yet, oldest
 * first, 5 per page (docs/api-support.md). The manager gives each to one of their own workers.
 */
export function UnassignedTicketsTab() {
  const client = useQueryClient();
  const managerId = useSession((s) => s.user?.id ?? null);
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<Record<string, string>>({});
  // The notice of the last assignment stays until the next one.
  const assigning = useSubmit({ successMs: null });
  const workerChoices = useWorkerChoices(managerId);
  const workers = workerChoices.data ?? [];
  const tickets = useUnassignedTickets(page);
  const queue = tickets.data ?? null;
  const loading = tickets.isPending || tickets.isFetching;
  const error =
    assigning.error ??
    (tickets.error ? errorMessage(tickets.error, 'Failed to fetch unassigned tickets.') : null) ??
    (workerChoices.error ? `Failed to load workers: ${errorMessage(workerChoices.error, 'unknown error')}` : null);

  // The last ticket of a later page was assigned: step back to a page that has rows.
  const totalCount = tickets.isPlaceholderData ? null : (queue?.totalCount ?? null);
  useEffect(() => {
    if (totalCount === null) return;
    const pages = Math.max(1, Math.ceil(totalCount / TICKETS_PER_PAGE));
    if (page > pages) setPage(pages);
  }, [page, totalCount]);

  const assign = async (ticket: Ticket) => {
    const workerId = chosen[ticket.id] ?? '';
    assigning.reset();
    if (!workerId) return assigning.fail('Please choose a worker.');
    await assigning.run(
      async () => {
        await assignTicket(ticket.id, workerId);
        const worker = workers.find((w) => w.id === workerId);
        return `Ticket "${ticket.subject}" assigned to ${worker?.full_name || worker?.email || 'the worker'}.`;
      },
      (err) => errorMessage(err, 'Failed to assign ticket.'),
      ticket.id,
    );
    void client.invalidateQueries({ queryKey: ticketKeys.unassigned });
  };

  const pageCount = Math.max(1, Math.ceil((queue?.totalCount ?? 0) / TICKETS_PER_PAGE));
  const rows = queue?.tickets ?? [];
  return (
    <section className="card staff-card" aria-labelledby="unassigned-tickets-title">
      <h2 id="unassigned-tickets-title" className="card__title">
        Unassigned Tickets
      </h2>
      {assigning.success && <Banner variant="success">{assigning.success}</Banner>}
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
                    <td data-label="Created">{listDate(t.created_at)}</td>
                    <td className="staff-table__actions">
                      <div className="ticket-assign">
                        <select
                          className="field__input"
                          aria-label={`Worker for ${t.subject}`}
                          value={chosen[t.id] ?? ''}
                          disabled={workers.length === 0 || assigning.busy}
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
                          loading={assigning.busyWith === t.id}
                          loadingText="Assigning..."
                          disabled={assigning.busy || !chosen[t.id]}
                          onClick={() => void assign(t)}
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
