import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Button } from '@/components/button.js';
import { formatListDateTime } from '@/lib/money.js';
import { useRealtime } from '@/lib/realtime.js';
import { useSubmit } from '@/lib/use-submit.js';
import { linkAttachment, postResponse, ticketKeys, useConversation, type Ticket } from './api.js';
import { AttachmentList } from './attachment-list.js';
import { ATTACHMENT_RULES, TEXT, customerMayReply, delay, openingAttachments } from './rules.js';
import { usePendingUploads } from './use-pending-uploads.js';

type Side = 'customer' | 'worker';

type Props = {
  ticketId: string;
  side: Side;
  /** Rendered above the messages with the freshest ticket (the worker's status controls). */
  header?: (ticket: Ticket, reload: () => void) => ReactNode;
};

const SEND_FAILED: Record<Side, string> = {
  customer: 'Failed to send message. Please try again.',
  worker: 'Failed to send response. Please try again.',
};

const LOAD_FAILED = 'Failed to load messages';

/** A ticket's messages and files, and the reply box, kept live over the realtime socket. */
export function TicketConversation({ ticketId, side, header }: Props) {
  const client = useQueryClient();
  const conversation = useConversation(ticketId);
  const data = conversation.data ?? null;
  const loadError = conversation.error ? LOAD_FAILED : null;
  const reload = useCallback(() => void client.invalidateQueries({ queryKey: ticketKeys.conversation(ticketId) }), [client, ticketId]);

  useRealtime('tickets', (payload) => {
    const p = payload as { ticketId?: string; changed?: boolean } | null;
    if (p?.changed || p?.ticketId === ticketId) reload();
  });

  const threadEnd = useRef<HTMLLIElement>(null);
  const count = data ? data.responses.length + data.attachments.length : 0;
  useEffect(() => {
    threadEnd.current?.scrollIntoView?.({ block: 'nearest' });
  }, [count]);

  if (loadError && !data)
    return (
      <p className="banner banner--error" role="alert">
        {loadError}
      </p>
    );
  if (!data)
    return (
      <p className="muted" role="status">
        Loading messages...
      </p>
    );

  const { ticket, responses, attachments } = data;
  const mayReply = side === 'worker' || customerMayReply(responses);

  return (
    <div className="ticket-conversation">
      {header?.(ticket, reload)}
      {loadError && (
        <p className="banner banner--error" role="alert">
          {loadError}
        </p>
      )}
      <ol className="ticket-thread" aria-label="Messages" tabIndex={0}>
        <Message
          fromWorker={false}
          mine={side === 'customer'}
          at={ticket.created_at}
          author={side === 'customer' ? 'You' : (ticket.user_email ?? 'Customer')}
        >
          <p className="ticket-message__text">{ticket.message}</p>
          <AttachmentList attachments={openingAttachments(attachments)} />
        </Message>
        {responses.map((r) => (
          <Message
            key={r.id}
            fromWorker={r.is_from_worker}
            mine={(side === 'worker') === r.is_from_worker}
            at={r.created_at}
            author={
              r.is_from_worker ? (side === 'worker' ? 'You' : 'Support') : side === 'customer' ? 'You' : (ticket.user_email ?? 'Customer')
            }
          >
            {r.message && <p className="ticket-message__text">{r.message}</p>}
            <AttachmentList attachments={attachments.filter((a) => a.response_id === r.id)} />
          </Message>
        ))}
        <li ref={threadEnd} aria-hidden="true" />
      </ol>
      <ReplyBox key={ticket.id} ticket={ticket} side={side} mayReply={mayReply} onSent={reload} />
    </div>
  );
}

function Message({
  fromWorker,
  mine,
  at,
  author,
  children,
}: {
  fromWorker: boolean;
  mine: boolean;
  at: string;
  author: string;
  children: ReactNode;
}) {
  return (
    <li
      className={`ticket-message ${mine ? 'ticket-message--mine' : ''} ${fromWorker ? 'ticket-message--support' : 'ticket-message--customer'}`}
    >
      <div className="ticket-message__meta">
        <strong>{author}</strong> <span className="muted">{formatListDateTime(at)}</span>
      </div>
      {children}
    </li>
  );
}

function ReplyBox({ ticket, side, mayReply, onSent }: { ticket: Ticket; side: Side; mayReply: boolean; onSent: () => void }) {
  const [text, setText] = useState('');
  const sending = useSubmit();
  const uploads = usePendingUploads(ticket.id);
  const fileInput = useRef<HTMLInputElement>(null);
  const canSend = mayReply && !sending.busy && !uploads.uploading && (text.trim().length > 0 || uploads.pending.length > 0);

  const send = async () => {
    if (!canSend) return;
    await sending.run(
      async () => {
        const { response } = await postResponse(ticket.id, text.trim());
        setText('');
        const toLink = uploads.pending;
        if (toLink.length > 0) {
          await delay(ATTACHMENT_RULES.linkDelayMs);
          await Promise.all(toLink.map((a) => linkAttachment(a.id, response.id)));
          uploads.clear();
        }
        onSent();
      },
      () => SEND_FAILED[side],
    );
  };

  return (
    <form
      className="ticket-reply"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      {side === 'worker' && ticket.status === 'resolved' && (
        <p className="banner banner--info" role="status">
          This ticket is resolved. Sending a reply will re-open it.
        </p>
      )}
      <label className="visually-hidden" htmlFor={`reply-${ticket.id}`}>
        Reply
      </label>
      <textarea
        id={`reply-${ticket.id}`}
        className="field__input ticket-reply__input"
        rows={3}
        maxLength={5000}
        value={text}
        disabled={!mayReply || sending.busy}
        placeholder={mayReply ? TEXT.typeReply : TEXT.waiting}
        onChange={(e) => setText(e.target.value)}
        aria-describedby={mayReply ? undefined : `reply-hint-${ticket.id}`}
      />
      {!mayReply && (
        <p id={`reply-hint-${ticket.id}`} className="field__hint">
          {TEXT.waitingHint}
        </p>
      )}
      {uploads.pending.length > 0 && (
        <ul className="ticket-pending" aria-label="Files to send">
          {uploads.pending.map((a) => (
            <li key={a.id}>
              <span>{a.file_name}</span>
              <button type="button" className="link-button" onClick={() => void uploads.remove(a.id)} aria-label={`Remove ${a.file_name}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {uploads.error && (
        <p className="field__error" role="alert">
          {uploads.error}
        </p>
      )}
      {sending.error && (
        <p className="field__error" role="alert">
          {sending.error}
        </p>
      )}
      <div className="ticket-reply__actions">
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          accept={ATTACHMENT_RULES.accept}
          data-testid="reply-file-input"
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            void uploads.add(files);
          }}
        />
        <Button
          variant="secondary"
          disabled={!mayReply || sending.busy}
          loading={uploads.uploading}
          loadingText="Uploading..."
          onClick={() => fileInput.current?.click()}
        >
          Attach File
        </Button>
        <Button type="submit" disabled={!canSend} loading={sending.busy} loadingText="Sending...">
          Send
        </Button>
      </div>
    </form>
  );
}
