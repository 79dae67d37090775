import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ATTACHMENT_EXTENSIONS,
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_TEXT,
  AttachmentFile,
  TicketAttachment,
  TicketAttachmentQuery,
} from '../../../ledger/contract/tickets.js';
import fastifyMultipart, { type Multipart } from '@fastify/multipart';
import { authOf } from '../../auth/guard.js';
import { checkUpload } from '../../blobs/sniff.js';
import { badRequest, HttpError, notFound } from '../../errors.js';
import { TICKET_TEXT } from '../../../ledger/tickets/ticket.js';
import { isUuid } from '../../ids.js';
import { clipText, hasUnstorableText, UNSTORABLE_MESSAGE } from '../../plugins/security.js';
import { findAttachment, writtenAttachment } from './queries.js';
import { attachmentJson, SupportTickets } from './tickets.js';

export const autoPrefix = '/functions/v1';

/** Shown in the browser itself; anything else is only ever downloaded. */
const INLINE = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'application/pdf']);

interface Upload {
  fields: Record<string, string>;
  file: { name: string; data: Buffer } | null;
}

/** Reads ticketId, optional responseId and one file; the parser stops a file at 10 MB (413). */
async function readUpload(request: FastifyRequest): Promise<Upload> {
  const upload: Upload = { fields: {}, file: null };
  let current = '';
  try {
    for await (const part of request.parts() as AsyncIterableIterator<Multipart>) {
      if (part.type === 'field') {
        upload.fields[part.fieldname] = String(part.value);
        continue;
      }
      current = part.filename;
      if (part.fieldname !== 'file' || upload.file) {
        part.file.resume();
        continue;
      }
      upload.file = { name: part.filename, data: await part.toBuffer() };
    }
    // Multipart fields and names escape the JSON bodies' check (security.ts).
    if (hasUnstorableText(upload.fields) || (upload.file && hasUnstorableText(upload.file.name))) throw badRequest(UNSTORABLE_MESSAGE);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, ATTACHMENT_TEXT.tooLarge(current));
    if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT')
      throw new HttpError(413, 'Send one file per upload.');
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw badRequest('Send the file as multipart/form-data.');
    throw badRequest(ATTACHMENT_TEXT.unreadable);
  }
  return upload;
}

/**
 * Attachments (spec 001/002): upload by content type, and stream only to the ticket's two sides;
 * listing, linking to a reply and removing are ./attachment-api.ts.
 */
const attachmentFunctions: FastifyPluginAsyncZod = async (app) => {
  const { blobs } = app;
  const tickets = new SupportTickets(app.ledger, app.realtime);

  // Scoped to these routes (the KYC routes register their own with their limits).
  if (!app.hasRequestDecorator('parts')) {
    await app.register(fastifyMultipart, { limits: { fileSize: ATTACHMENT_MAX_BYTES, files: 1, fields: 4, fieldSize: 1024, parts: 5 } });
  }

  app.post(
    '/upload-ticket-attachment',
    {
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: { tags: ['functions'], response: { 200: TicketAttachment }, consumes: ['multipart/form-data'] },
    },
    async (request) => {
      const caller = authOf(request);
      const upload = await readUpload(request);
      const ticketId = upload.fields['ticketId'];
      if (!ticketId || !isUuid(ticketId)) throw badRequest(ATTACHMENT_TEXT.missingTicket);
      const responseId = upload.fields['responseId'] || null;
      if (responseId && !isUuid(responseId)) throw badRequest('responseId must be an id.');
      if (!upload.file) throw badRequest(ATTACHMENT_TEXT.missingFile);
      const { side } = await tickets.forParticipant(ticketId, caller);
      const { name, data } = upload.file;
      if (data.byteLength === 0) throw badRequest(ATTACHMENT_TEXT.empty(name));
      const checked = await checkUpload(name, data, ATTACHMENT_EXTENSIONS);
      if (!checked.ok)
        throw badRequest(checked.reason === 'extension' ? ATTACHMENT_TEXT.format(checked.ext) : ATTACHMENT_TEXT.content(name, checked.ext));
      // A customer's upload counts against their quota; staff replies do not.
      const blob = await blobs.put(data, checked.mime, caller.role === 'USER' ? caller.userId : undefined);
      const attachmentId = randomUUID();
      try {
        await tickets.run(
          ticketId,
          {
            type: 'AddAttachment',
            attachment: {
              attachmentId,
              uploadedBy: caller.userId,
              fromWorker: side === 'worker',
              responseId,
              fileName: clipText(name, 255),
              fileType: checked.mime,
              fileSize: blob.size,
              blobId: blob.blobId,
              sha256: blob.sha256,
            },
          },
          caller,
        );
      } catch (error) {
        await blobs.delete(blob.blobId);
        throw error;
      }
      return attachmentJson(await writtenAttachment(tickets.db, attachmentId));
    },
  );

  app.get(
    '/get-ticket-attachment',
    {
      schema: {
        tags: ['functions'],
        response: { 200: AttachmentFile },
        querystring: TicketAttachmentQuery,
      },
    },
    async (request, reply) => {
      const caller = authOf(request);
      const row = await findAttachment(tickets.db, request.query.id);
      if (!row) throw notFound(TICKET_TEXT.attachmentNotFound);
      try {
        await tickets.forParticipant(row.ticket_id, caller);
      } catch {
        throw notFound(TICKET_TEXT.attachmentNotFound);
      }
      const blob = await blobs.get(row.storage_path);
      if (!blob) throw notFound(TICKET_TEXT.attachmentNotFound);
      const inline = !request.query.download && INLINE.has(row.file_type);
      const fileName = encodeURIComponent(row.file_name);
      return reply
        .header('content-type', row.file_type)
        .header('content-length', blob.data.byteLength)
        .header('content-disposition', `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${fileName}`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(blob.data);
    },
  );
};

export default attachmentFunctions;
