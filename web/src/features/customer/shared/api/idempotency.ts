import type { Options } from 'ky';

function uuid(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Options for a command: a fresh Idempotency-Key, so the one automatic repeat the client
 * makes after a token refresh cannot run it twice.
 */
export function idempotent(options: Options = {}): Options {
  return { ...options, headers: { ...(options.headers as Record<string, string> | undefined), 'Idempotency-Key': uuid() } };
}
