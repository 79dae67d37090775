import { useState } from 'react';
import { Button } from '@/components/button.js';
import { Field } from '@/components/field.js';
import { FileField } from '@/components/file-field.js';
import { Modal } from '@/components/modal.js';
import { ApiError, messageOf } from '@/lib/api-client.js';
import { useSession } from '@/lib/session.js';
import { Refusal, useSubmit } from '@/lib/use-submit.js';
import { createTicket, uploadAttachment, type Ticket, type Urgency } from '@/components/tickets/api.js';
import { ATTACHMENT_RULES, TEXT, fileProblem } from '@/components/tickets/rules.js';

type Errors = { subject?: string; message?: string; files?: string };

const CREATE_FAILED = 'Failed to create ticket. Please try again.';

/** 'Create Ticket': subject, message, urgency (default medium) and optional files. */
export function CreateTicketModal({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (ticket: Ticket) => void;
}) {
  const userId = useSession((s) => s.session?.user.id ?? null);
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [urgency, setUrgency] = useState<Urgency>('medium');
  const [files, setFiles] = useState<File[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const creating = useSubmit();
  const busy = creating.busy;

  const reset = () => {
    setSubject('');
    setMessage('');
    setUrgency('medium');
    setFiles([]);
    setErrors({});
    creating.reset();
  };

  const submit = async () => {
    const next: Errors = {};
    if (!subject.trim()) next.subject = TEXT.subjectRequired;
    if (!message.trim()) next.message = TEXT.messageRequired;
    setErrors(next);
    creating.reset();
    if (next.subject || next.message) return;
    if (!userId) return creating.fail('You must be logged in to create a ticket');
    const done: { ticket?: Ticket; failed: string[] } = { failed: [] };
    await creating.run(async () => {
      // Spec 001 section 8: the server's error field, in preference to the generic text.
      const ticket = await createTicket({ subject: subject.trim(), message: message.trim(), urgency, userId }).catch((e: unknown) =>
        Promise.reject(new Refusal(e instanceof ApiError && e.status !== null ? messageOf(e.body, CREATE_FAILED) : CREATE_FAILED)),
      );
      for (const file of files) {
        try {
          await uploadAttachment(ticket.id, file);
        } catch (e) {
          done.failed.push(TEXT.uploadFailed(file.name, e instanceof Error && e.message ? e.message : 'Upload failed'));
        }
      }
      done.ticket = ticket;
    }, CREATE_FAILED);
    const { ticket, failed } = done;
    if (!ticket) return;
    onCreated(ticket);
    if (failed.length > 0) {
      window.alert(failed.join('\n'));
    }
    reset();
  };

  return (
    <Modal
      open={open}
      onClose={() => {
        if (!busy) {
          reset();
          onClose();
        }
      }}
      title="Create Support Ticket"
      footer={
        <>
          <Button
            variant="secondary"
            disabled={busy}
            onClick={() => {
              reset();
              onClose();
            }}
          >
            Cancel
          </Button>
          <Button type="submit" form="create-ticket-form" loading={busy} loadingText="Creating...">
            Create Ticket
          </Button>
        </>
      }
    >
      <form
        id="create-ticket-form"
        className="ticket-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {creating.error && (
          <p className="banner banner--error" role="alert">
            {creating.error}
          </p>
        )}
        <Field
          label="Subject"
          value={subject}
          maxLength={200}
          onChange={(e) => {
            setSubject(e.target.value);
            setErrors((x) => ({ ...x, subject: undefined }));
          }}
          error={errors.subject}
        />
        <div className="field">
          <label className="field__label" htmlFor="ticket-message">
            Message
          </label>
          <textarea
            id="ticket-message"
            className="field__input"
            rows={5}
            maxLength={5000}
            value={message}
            aria-invalid={errors.message ? true : undefined}
            onChange={(e) => {
              setMessage(e.target.value);
              setErrors((x) => ({ ...x, message: undefined }));
            }}
          />
          {errors.message && <p className="field__error">{errors.message}</p>}
        </div>
        <div className="field">
          <label className="field__label" htmlFor="ticket-urgency">
            Urgency
          </label>
          <select id="ticket-urgency" className="field__input" value={urgency} onChange={(e) => setUrgency(e.target.value as Urgency)}>
            <option value="low">Low</option>
            <option value="medium">Medium</option>
            <option value="high">High</option>
          </select>
        </div>
        <FileField
          id="ticket-files"
          label="Attachments (optional)"
          multiple
          accept={ATTACHMENT_RULES.accept}
          onChange={(e) => {
            const picked = [...(e.target.files ?? [])];
            const problems = picked.map(fileProblem).filter(Boolean);
            setErrors((x) => ({ ...x, files: problems[0] ?? undefined }));
            setFiles(picked.filter((f) => !fileProblem(f)));
          }}
          chosen={files.map((f) => f.name).join(', ')}
          hint="Up to 10MB each: JPEG, PNG, GIF, WebP, PDF, TXT, CSV, Word, Excel, ZIP."
          error={errors.files}
        />
      </form>
    </Modal>
  );
}
