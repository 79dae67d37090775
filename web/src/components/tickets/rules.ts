import type { TicketAttachment, TicketResponse } from './api.js';

/** Spec 001 sections 4, 5 and 9; spec 002 section 4. */
export const ATTACHMENT_RULES = {
  maxBytes: 10 * 1024 * 1024,
  extensions: ['jpeg', 'jpg', 'png', 'gif', 'webp', 'pdf', 'txt', 'csv', 'doc', 'docx', 'xls', 'xlsx', 'zip'],
  accept: '.jpeg,.jpg,.png,.gif,.webp,.pdf,.txt,.csv,.doc,.docx,.xls,.xlsx,.zip',
  /** Unlinked uploads younger than this are someone's reply in the making, not the first message's. */
  pendingWindowMs: 5 * 60_000,
  /** Linking waits this long after the reply is sent. */
  linkDelayMs: 500,
  errorClearMs: 5_000,
  pdfUrlLifetimeMs: 60_000,
} as const;

export const TICKET_TIMING = { savedMs: 3_000, listRefreshMs: 1_000 } as const;

export const TEXT = {
  waiting: 'Waiting for support to respond...',
  waitingHint: 'Please wait for support to respond before sending another message',
  typeReply: 'Type your reply...',
  subjectRequired: 'Please enter a subject for your ticket',
  messageRequired: 'Please provide a message describing your issue',
  tooLarge: (name: string) => `File "${name}" is too large. Maximum size is 10MB.`,
  format: (ext: string) =>
    `Format not supported: .${ext.toUpperCase()}. Supported formats: JPEG, JPG, PNG, GIF, WebP, PDF, TXT, CSV, DOC, DOCX, XLS, XLSX, ZIP.`,
  uploadFailed: (name: string, reason: string) => `Failed to upload ${name}: ${reason}`,
  loginToUpload: 'You must be logged in to upload files',
} as const;

/** The spec's own check before an upload starts; the server checks the content again. */
export function fileProblem(file: File): string | null {
  const ext = file.name.includes('.') ? file.name.split('.').pop()!.toLowerCase() : '';
  if (!(ATTACHMENT_RULES.extensions as readonly string[]).includes(ext)) return TEXT.format(ext || '?');
  if (file.size > ATTACHMENT_RULES.maxBytes) return TEXT.tooLarge(file.name);
  return null;
}

/** The first message's files: sent with the ticket, or unlinked and older than the pending window. */
export function openingAttachments(attachments: TicketAttachment[], now = Date.now()): TicketAttachment[] {
  return attachments.filter(
    (a) => a.response_id === null && (a.opening || now - new Date(a.uploaded_at).getTime() > ATTACHMENT_RULES.pendingWindowMs),
  );
}

/** The customer may speak only when support spoke last (spec 001 section 4). */
export function customerMayReply(responses: TicketResponse[]): boolean {
  const last = responses[responses.length - 1];
  return Boolean(last?.is_from_worker);
}

export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export const delay = (ms: number) => new Promise<void>((resolve) => window.setTimeout(resolve, ms));
