import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/button.js';
import { Card } from '@/components/card.js';
import { Modal } from '@/components/modal.js';
import { Pager } from '@/components/pager.js';
import { SkeletonRows } from '@/components/skeleton-rows.js';
import { formatListDateTime } from '@/lib/money.js';
import { useSession } from '@/lib/session.js';
import { useSubmit } from '@/lib/use-submit.js';
import {
  STATUS_LABEL,
  ticketKeys,
  TICKETS_PER_PAGE,
  updateTicketStatus,
  URGENCY_LABEL,
  useWorkerTickets,
  type Ticket,
  type TicketStatus,
} from '@/components/tickets/api.js';
import { TICKET_TIMING } from '@/components/tickets/rules.js';
import { TicketConversation } from '@/components/tickets/ticket-conversation.js';
import '@/components/tickets/tickets.css';

type Filter = TicketStatus | 'all';
const FILTER_KEY = 'wallet-ledger.worker-ticket-filter';
const FILTERS: Filter[] = ['all', 'open', 'in_progress', 'resolved'];

function storedFilter(): Filter {
  const value = window.localStorage.getItem(FILTER_KEY);
  return FILTERS.includes(value as Filter) ? (value as Filter) : 'all';
}

/** /dashboard/worker/support-tickets (spec 002): the tickets assigned to this worker, 5 per page. */
export function WorkerTicketsTab() {
  const workerId = useSession((s) => s.session?.user.id ?? null);
  const [filter, setFilterState] = useState<Filter>(storedFilter);
  const [page, setPage] = useState(1);
  const [openTicket, setOpenTicket] = useState<Ticket | null>(null);
  const client = useQueryClient();
  const list = useWorkerTickets(workerId, page, filter === 'all' ? null : filter);
  const tickets = list.data?.tickets ?? [];
  const emails = list.data?.userEmails ?? {};
  const total = list.data?.totalCount ?? 0;
  const loading = list.isPending || list.isFetching;
  const error = list.error ? `Failed to load tickets: ${list.error.message || 'unknown error'}` : null;

  const setFilter = (next: Filter) => {
    window.localStorage.setItem(FILTER_KEY, next);
    setFilterState(next);
    setPage(1);
  };

  // After a status change the list is read again after 1 s; a filter that would hide the ticket follows it.
  const refreshTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(refreshTimer.current), []);
  const onStatusSaved = (status: TicketStatus) => {
    window.clearTimeout(refreshTimer.current);
    refreshTimer.current = window.setTimeout(() => {
      if (filter !== 'all' && filter !== status) setFilter(status);
      else void client.invalidateQueries({ queryKey: ticketKeys.workerLists });
    }, TICKET_TIMING.listRefreshMs);
  };

  return (
    <div className="worker-tickets">
      <div className="worker-tickets__bar">
        <h2 className="card__title">Support Tickets</h2>
        <label className="worker-tickets__filter">
          <span className="field__label">Status</span>{' '}
          <select
            className="field__input"
            value={filter}
            onChange={(e) => setFilter(e.target.value as Filter)}
            aria-label="Filter by status"
          >
            <option value="all">All</option>
            <option value="open">Open</option>
            <option value="in_progress">In Progress</option>
            <option value="resolved">Resolved</option>
          </select>
        </label>
      </div>
      {/* Spec 002 section 8: 'Failed to load tickets: {reason}', with no 'Error:' before it. */}
      {error && (
        <p className="banner banner--error" role="alert">
          {error}
        </p>
      )}
      <Card className="ticket-card" aria-label="Tickets assigned to you">
        {loading && tickets.length === 0 ? (
          <SkeletonRows rows={5} columns={5} label="Loading tickets..." />
        ) : tickets.length === 0 ? (
          !error && <p className="empty-text">No tickets found.</p>
        ) : (
          <ul className="ticket-list">
            {tickets.map((t) => (
              <li key={t.id}>
                <button type="button" className="ticket-row ticket-row--worker" onClick={() => setOpenTicket(t)} aria-haspopup="dialog">
                  <span className="ticket-row__subject">{t.subject}</span>
                  <span className="muted ticket-row__email">{emails[t.user_id] ?? t.user_id}</span>
                  <span className={`ticket-urgency ticket-urgency--${t.urgency}`}>{URGENCY_LABEL[t.urgency]}</span>
                  <span className={`ticket-status ticket-status--${t.status}`}>{STATUS_LABEL[t.status]}</span>
                  <span className="muted ticket-row__date">{formatListDateTime(t.created_at)}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <Pager page={page} pageCount={Math.ceil(total / TICKETS_PER_PAGE)} onPageChange={setPage} disabled={loading} />
      </Card>
      <Modal open={Boolean(openTicket)} onClose={() => setOpenTicket(null)} title={openTicket?.subject ?? 'Ticket'} size="large">
        {openTicket && workerId && (
          <TicketConversation
            ticketId={openTicket.id}
            side="worker"
            header={(ticket, reload) => (
              <StatusControl
                key={ticket.id}
                ticket={ticket}
                workerId={workerId}
                onSaved={(status) => {
                  reload();
                  onStatusSaved(status);
                }}
              />
            )}
          />
        )}
      </Modal>
    </div>
  );
}

function StatusControl({ ticket, workerId, onSaved }: { ticket: Ticket; workerId: string; onSaved: (status: TicketStatus) => void }) {
  const [status, setStatus] = useState<TicketStatus>(ticket.status);
  const saving = useSubmit({ successMs: TICKET_TIMING.savedMs });
  // A change made elsewhere (a reply that re-opened the ticket) shows in the dropdown.
  useEffect(() => setStatus(ticket.status), [ticket.status]);

  const save = () =>
    saving.run(
      async () => {
        await updateTicketStatus(ticket.id, status, workerId);
        onSaved(status);
        return 'Saved!';
      },
      () => 'An error occurred while updating the status. Please try again.',
    );

  return (
    <div className="ticket-status-bar">
      <span className="muted ticket-status-bar__info">
        {ticket.user_email ?? ''} · Urgency {URGENCY_LABEL[ticket.urgency]}
      </span>
      <label htmlFor={`status-${ticket.id}`} className="field__label">
        Status
      </label>
      <select
        id={`status-${ticket.id}`}
        className="field__input"
        value={status}
        onChange={(e) => setStatus(e.target.value as TicketStatus)}
      >
        <option value="open">Open</option>
        <option value="in_progress">In Progress</option>
        <option value="resolved">Resolved</option>
      </select>
      <Button variant="secondary" onClick={() => void save()} loading={saving.busy} loadingText="Saving...">
        Save Status
      </Button>
      {saving.success && (
        <span className="ticket-saved" role="status">
          {saving.success}
        </span>
      )}
      {saving.error && (
        <p className="field__error" role="alert">
          {saving.error}
        </p>
      )}
    </div>
  );
}
