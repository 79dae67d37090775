import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/button.js';
import { Card } from '@/components/card.js';
import { Modal } from '@/components/modal.js';
import { Pager } from '@/components/pager.js';
import { ScreenTitle } from '@/components/screen-title.js';
import { SkeletonRows } from '@/components/skeleton-rows.js';
import { formatListDateTime } from '@/lib/money.js';
import { STATUS_LABEL, TICKETS_PER_PAGE, ticketKeys, URGENCY_LABEL, useMyTickets } from '@/components/tickets/api.js';
import { TicketConversation } from '@/components/tickets/ticket-conversation.js';
import '@/components/tickets/tickets.css';
import { CreateTicketModal } from './create-ticket-modal.js';

/** /dashboard/support (spec 001 "Support Tickets"): 5 per page, newest first. */
export function SupportPage() {
  const client = useQueryClient();
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [openId, setOpenId] = useState<string | null>(null);
  const list = useMyTickets(page);
  const tickets = list.data?.tickets ?? [];
  const total = list.data?.totalCount ?? 0;
  const loading = list.isPending || list.isFetching;
  const error = list.error ? 'Failed to load tickets' : null;

  const opened = tickets.find((t) => t.id === openId);

  return (
    <div className="customer-screen support">
      <ScreenTitle>Support Tickets</ScreenTitle>
      <div className="support__actions">
        <Button onClick={() => setCreating(true)}>Create Ticket</Button>
      </div>
      {error && (
        <p className="banner banner--error" role="alert">
          Error: {error}
        </p>
      )}
      <Card className="ticket-card" aria-label="Your support tickets">
        {loading && tickets.length === 0 ? (
          <SkeletonRows rows={5} columns={4} label="Loading tickets..." />
        ) : tickets.length === 0 ? (
          !error && (
            <div className="empty-state">
              <p className="empty-state__title">Oops! Nothing is here.</p>
              <p className="muted">We couldn't find any support tickets.</p>
            </div>
          )
        ) : (
          <ul className="ticket-list">
            {tickets.map((t) => (
              <li key={t.id}>
                <button type="button" className="ticket-row" onClick={() => setOpenId(t.id)} aria-haspopup="dialog">
                  <span className="ticket-row__subject">{t.subject}</span>
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
      <CreateTicketModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={() => {
          setCreating(false);
          void client.invalidateQueries({ queryKey: ticketKeys.mine(1) });
          setPage(1);
        }}
      />
      <Modal open={Boolean(openId)} onClose={() => setOpenId(null)} title={opened?.subject ?? 'Ticket'} size="large">
        {openId && <TicketConversation ticketId={openId} side="customer" />}
      </Modal>
    </div>
  );
}
