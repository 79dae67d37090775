import type { MailMessage } from './mailer.js';
import { mailAmount, mailTime, transactionMailText, type TransactionOutcomeNotice } from '../../ledger/notifications/transaction-mail.js';

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}

/** A display name on one line, or the fallback when there is none. */
function displayName(name: string | null | undefined): string {
  const cleaned = (name ?? '').replace(/[\p{Cc}\s]+/gu, ' ').trim();
  return cleaned || 'there';
}

const colors = { text: '#1f2933', muted: '#616e7c', accent: '#2563eb', border: '#e4e7eb', page: '#f5f7fa' };

/** A plain, single-column layout with inline styles (mail clients drop style sheets). */
function layout(title: string, bodyHtml: string): string {
  return [
    '<!doctype html>',
    `<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>`,
    `<body style="margin:0;padding:24px;background:${colors.page};font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:${colors.text};">`,
    `<div style="max-width:520px;margin:0 auto;background:#ffffff;border:1px solid ${colors.border};border-radius:8px;padding:32px;">`,
    `<h1 style="margin:0 0 16px;font-size:20px;line-height:28px;">${escapeHtml(title)}</h1>`,
    bodyHtml,
    '</div>',
    '</body></html>',
  ].join('\n');
}

const paragraph = (html: string) => `<p style="margin:0 0 16px;font-size:15px;line-height:22px;">${html}</p>`;
const note = (html: string) => `<p style="margin:16px 0 0;font-size:13px;line-height:20px;color:${colors.muted};">${html}</p>`;

function button(link: string, label: string): string {
  const href = escapeHtml(link);
  return [
    `<p style="margin:24px 0;"><a href="${href}" style="display:inline-block;background:${colors.accent};color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:6px;">${escapeHtml(label)}</a></p>`,
    note(`Or open this link: <a href="${href}" style="color:${colors.accent};word-break:break-all;">${href}</a>`),
  ].join('\n');
}

export function confirmationMail(to: string, name: string | null | undefined, link: string): MailMessage {
  const who = displayName(name);
  const subject = 'Confirm your email address';
  const text = [
    `Hi ${who},`,
    '',
    'Please confirm your email address to finish creating your wallet account:',
    link,
    '',
    'If you did not create an account, you can ignore this email.',
  ].join('\n');
  const html = layout(
    subject,
    [
      paragraph(`Hi ${escapeHtml(who)},`),
      paragraph('Please confirm your email address to finish creating your wallet account.'),
      button(link, 'Confirm email address'),
      note('If you did not create an account, you can ignore this email.'),
    ].join('\n'),
  );
  return { to, subject, text, html };
}

export function welcomeMail(to: string, name?: string | null): MailMessage {
  const who = displayName(name);
  const subject = 'Welcome to your wallet';
  const text = [
    `Hi ${who},`,
    '',
    'Welcome! Your wallet account is ready. You can now sign in to deposit, send, swap and stake your assets.',
    '',
    'For your security, consider turning on two-step verification in your account settings.',
  ].join('\n');
  const html = layout(
    subject,
    [
      paragraph(`Hi ${escapeHtml(who)},`),
      paragraph('Welcome! Your wallet account is ready. You can now sign in to deposit, send, swap and stake your assets.'),
      note('For your security, consider turning on two-step verification in your account settings.'),
    ].join('\n'),
  );
  return { to, subject, text, html };
}

export function emailOtpMail(to: string, code: string): MailMessage {
  const subject = 'Your verification code';
  const text = [
    `Your verification code is: ${code}`,
    '',
    'It is valid for 10 minutes. If you did not ask for it, you can ignore this email; never share this code with anyone.',
  ].join('\n');
  const html = layout(
    subject,
    [
      paragraph('Use this code to finish signing in:'),
      `<p style="margin:8px 0 24px;font-family:SFMono-Regular,Menlo,Consolas,monospace;font-size:32px;line-height:40px;font-weight:700;letter-spacing:8px;">${escapeHtml(code)}</p>`,
      paragraph('It is valid for 10 minutes.'),
      note('If you did not ask for it, you can ignore this email. Never share this code with anyone.'),
    ].join('\n'),
  );
  return { to, subject, text, html };
}

/** To the owner of an address someone tried to register again (the sign-up answered as for a new one). */
export function accountExistsMail(to: string, signInLink: string): MailMessage {
  const subject = 'Someone tried to sign up with your email address';
  const text = [
    'Someone tried to create a wallet account with this email address, which already has one. No new account was created.',
    '',
    `If it was you, sign in instead: ${signInLink}`,
    'Forgot your password? Choose "Forgot Password" on that page to reset it.',
    '',
    'If it was not you, you can ignore this email: your account and password stay the same.',
  ].join('\n');
  const html = layout(
    subject,
    [
      paragraph('Someone tried to create a wallet account with this email address, which already has one. No new account was created.'),
      button(signInLink, 'Sign in'),
      paragraph('Forgot your password? Choose &ldquo;Forgot Password&rdquo; on the sign-in page to reset it.'),
      note('If it was not you, you can ignore this email: your account and password stay the same.'),
    ].join('\n'),
  );
  return { to, subject, text, html };
}

export function passwordResetMail(to: string, link: string): MailMessage {
  const subject = 'Reset your password';
  const text = [
    'Someone asked to reset the password of your wallet account. To choose a new password, open this link:',
    link,
    '',
    'The link is valid for 1 hour. If you did not ask for this, you can ignore this email; your password stays the same.',
  ].join('\n');
  const html = layout(
    subject,
    [
      paragraph('Someone asked to reset the password of your wallet account. To choose a new password, use the button below.'),
      button(link, 'Reset password'),
      note('The link is valid for 1 hour. If you did not ask for this, you can ignore this email; your password stays the same.'),
    ].join('\n'),
  );
  return { to, subject, text, html };
}

/** A staff action on the customer's account (ledger/notifications/staff-notices.ts): what happened, no secret. */
export function staffNoticeMail(to: string, name: string | null | undefined, notice: { subject: string; message: string }): MailMessage {
  const who = displayName(name);
  const closing = 'You are receiving this because it concerns the security of your account.';
  const text = [`Hi ${who},`, '', notice.message, '', closing].join('\n');
  const html = layout(
    notice.subject,
    [paragraph(`Hi ${escapeHtml(who)},`), paragraph(escapeHtml(notice.message)), note(closing)].join('\n'),
  );
  return { to, subject: notice.subject, text, html };
}

/** Said in every transaction mail: why it came, and how to stop it. */
export const TRANSACTION_MAIL_WHY =
  'You receive this e-mail because transaction updates by e-mail are on in Settings > Notifications. Turn them off there to stop them.';

/**
 * A transaction's outcome, to a customer who asked for these mails (ledger/notifications/
 * transaction-mail.ts): what happened, the asset, the exact amount and the time in UTC.
 */
export function transactionMail(to: string, name: string | null | undefined, notice: TransactionOutcomeNotice, at: Date): MailMessage {
  const who = displayName(name);
  const { subject, message } = transactionMailText(notice);
  const lines = [`Asset: ${notice.assetId}`, `Amount: ${mailAmount(notice.amount)}`, `Time: ${mailTime(at)}`];
  const text = [`Hi ${who},`, '', message, '', ...lines, '', TRANSACTION_MAIL_WHY].join('\n');
  const html = layout(
    subject,
    [
      paragraph(`Hi ${escapeHtml(who)},`),
      paragraph(escapeHtml(message)),
      paragraph(lines.map(escapeHtml).join('<br>')),
      note(escapeHtml(TRANSACTION_MAIL_WHY)),
    ].join('\n'),
  );
  return { to, subject, text, html };
}

/** What a security notice tells the account's owner (spec-silent; docs/decisions.md, security mail). */
export type SecurityNotice =
  | { kind: 'password-changed'; at: Date }
  | { kind: 'factor-added'; at: Date }
  | { kind: 'factor-removed'; at: Date }
  | { kind: 'factor-removed-by-staff'; at: Date; reason: string }
  | { kind: 'mfa-method'; at: Date; method: 'totp' | 'email' | null; previous: 'totp' | 'email' | null }
  | { kind: 'recovery-code-used'; at: Date; left: number }
  | { kind: 'new-sign-in'; at: Date; ip: string | null; network: string | null; userAgent: string | null };

/** Said in every security notice. */
export const NOT_YOU =
  "If this was not you, reset your password now with 'Forgot password?' on the sign-in page, then contact the support team: someone else may have access to your account.";

const METHOD_NAME = { totp: 'an authenticator app', email: 'e-mailed codes' } as const;

function securityWhat(n: SecurityNotice): { subject: string; lines: string[] } {
  const when = `Time: ${mailTime(n.at)}`;
  switch (n.kind) {
    case 'password-changed':
      return { subject: 'Your password was changed', lines: ['The password of your wallet account was changed.', when] };
    case 'factor-added':
      return {
        subject: 'A second factor was added to your account',
        lines: ['An authenticator app was added as a second sign-in step of your wallet account.', when],
      };
    case 'factor-removed':
      return {
        subject: 'A second factor was removed from your account',
        lines: ['An authenticator app was removed from your wallet account.', when],
      };
    case 'factor-removed-by-staff':
      return {
        subject: 'Your two-factor authentication was removed by our staff',
        lines: [
          'A staff member removed the second sign-in step of your wallet account.',
          `Reason given: ${n.reason}`,
          when,
          'You can set up two-factor authentication again in Settings > Security.',
        ],
      };
    case 'mfa-method': {
      const lines =
        n.method === 'email'
          ? ['E-mailed verification codes were turned on for your wallet account.']
          : n.method === null
            ? [
                n.previous === 'email'
                  ? 'E-mailed verification codes were turned off for your wallet account.'
                  : 'Two-factor authentication was turned off for your wallet account.',
              ]
            : [`Your wallet account's second sign-in step is now ${METHOD_NAME[n.method]}.`];
      const subject =
        n.method === 'email'
          ? 'E-mail codes were turned on'
          : n.method === null && n.previous === 'email'
            ? 'E-mail codes were turned off'
            : 'Your two-factor method was changed';
      return { subject, lines: [...lines, when] };
    }
    case 'recovery-code-used':
      return {
        subject: 'A recovery code was used',
        lines: ['A recovery code was used instead of your authenticator app to sign in.', `Recovery codes left: ${n.left}`, when],
      };
    case 'new-sign-in':
      return {
        subject: 'New sign-in to your account',
        lines: [
          'Your wallet account was signed in to from a device and network not seen before.',
          when,
          `Place (IP range): ${n.network ?? 'unknown'}${n.ip ? ` (IP ${n.ip})` : ''}`,
          `Device: ${n.userAgent?.replace(/\p{Cc}+/gu, ' ').slice(0, 300) ?? 'unknown'}`,
        ],
      };
  }
}

export function securityMail(to: string, name: string | null | undefined, notice: SecurityNotice): MailMessage {
  const who = displayName(name);
  const { subject, lines } = securityWhat(notice);
  const text = [`Hi ${who},`, '', ...lines, '', NOT_YOU].join('\n');
  const html = layout(
    subject,
    [paragraph(`Hi ${escapeHtml(who)},`), ...lines.map((l) => paragraph(escapeHtml(l))), note(escapeHtml(NOT_YOU))].join('\n'),
  );
  return { to, subject, text, html };
}
