import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Bytes } from '../../../ledger/contract/common.js';
import { OutboxMailer, type StoredMail } from '../../mail/mailer.js';
import { escapeHtml } from '../../mail/templates.js';

const StoredMailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().optional(),
  sentAt: z.string(),
});

const MailboxQuerySchema = z.object({
  /** Only mail to this address (case-insensitive). */
  to: z.string().min(1).max(320).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});

/**
 * The local outbox, for development and tests: `GET /dev/mailbox` (a page) and
 * `GET /dev/mailbox.json`. Registered only outside production (the default export).
 */
export function devMailboxRoutes(outbox: OutboxMailer): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/dev/mailbox.json',
      {
        schema: {
          tags: ['dev'],
          summary: 'The local outbox, newest first (not in production)',
          querystring: MailboxQuerySchema,
          response: { 200: z.array(StoredMailSchema) },
        },
      },
      async (request, reply) => {
        const mails = await outbox.list({ limit: request.query.limit, to: request.query.to });
        return reply.header('cache-control', 'no-store').send(mails);
      },
    );

    app.get(
      '/dev/mailbox',
      {
        schema: {
          tags: ['dev'],
          summary: 'The local outbox as a page (not in production)',
          querystring: MailboxQuerySchema,
          response: { 200: Bytes('text/html: the outbox page') },
        },
      },
      async (request, reply) => {
        const mails = await outbox.list({ limit: request.query.limit, to: request.query.to });
        return reply
          .header('cache-control', 'no-store')
          .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'")
          .header('x-content-type-options', 'nosniff')
          .type('text/html; charset=utf-8')
          .send(renderMailbox(mails, request.query.to));
      },
    );
  };
}

/**
 * Loaded by autoload from server/routes/: the mailbox exists only outside production and only
 * when mail goes to the local outbox; otherwise the plugin registers nothing and the paths are 404.
 */
const devMailbox: FastifyPluginAsyncZod = async (app) => {
  const { mailer } = app.authServices;
  if (app.ledger.config.NODE_ENV === 'production' || !(mailer instanceof OutboxMailer)) return;
  await app.register(devMailboxRoutes(mailer));
};
export default devMailbox;

const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;

/** Escapes the text and turns http(s) links into anchors (trailing punctuation stays text). */
export function linkify(text: string): string {
  let html = '';
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index;
    let url = match[0];
    const trailing = /[.,;:!?)\]]+$/.exec(url);
    if (trailing) url = url.slice(0, -trailing[0].length);
    html += escapeHtml(text.slice(last, start));
    const href = escapeHtml(url);
    html += `<a href="${href}" rel="noreferrer noopener">${href}</a>`;
    last = start + url.length;
  }
  return html + escapeHtml(text.slice(last));
}

function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
}

export function renderMailbox(mails: StoredMail[], to?: string): string {
  const items = mails.length
    ? mails
        .map(
          (m) => `<article>
<header><h2>${escapeHtml(m.subject)}</h2><p class="meta">to <strong>${escapeHtml(m.to)}</strong> · <time datetime="${escapeHtml(m.sentAt)}">${escapeHtml(formatTime(m.sentAt))}</time></p></header>
<pre>${linkify(m.text)}</pre>
</article>`,
        )
        .join('\n')
    : '<p class="empty">No messages yet.</p>';
  const filter = to ? ` to ${escapeHtml(to)}` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dev mailbox</title>
<style>
:root { color-scheme: dark; }
body { margin: 0; padding: 24px; background: #0f1115; color: #e6e8eb; font: 14px/1.5 -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
main { max-width: 860px; margin: 0 auto; }
h1 { font-size: 20px; margin: 0 0 4px; }
.sub { color: #8b93a1; margin: 0 0 20px; }
.sub a, pre a { color: #7aa2ff; }
article { background: #171a21; border: 1px solid #262b36; border-radius: 8px; padding: 16px 18px; margin: 0 0 14px; }
h2 { font-size: 16px; margin: 0; }
.meta { color: #8b93a1; margin: 2px 0 10px; }
.meta strong { color: #c9d1dc; font-weight: 600; }
pre { margin: 0; white-space: pre-wrap; word-break: break-word; font: 13px/1.55 SFMono-Regular, Menlo, Consolas, monospace; color: #d5dae1; }
.empty { color: #8b93a1; }
</style></head>
<body><main>
<h1>Dev mailbox</h1>
<p class="sub">${mails.length} message${mails.length === 1 ? '' : 's'}${filter}, newest first · <a href="">refresh</a> · <a href="mailbox.json">JSON</a></p>
${items}
</main></body></html>`;
}
