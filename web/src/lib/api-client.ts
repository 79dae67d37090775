import ky, { HTTPError, TimeoutError, type Options } from 'ky';

/**
 * The one HTTP client of the app. Paths are relative to the site root ('healthz',
 * 'auth/v1/token', 'functions/v1/create-swap-request'); a leading slash is dropped.
 *
 * Every call carries the signed-in user's access token unless told otherwise
 * (`anonymous()` or `withBearer(token)`). When the server answers 401 to a call that
 * carried the session's token, the session is refreshed once and the call repeated once.
 */

/** What the client needs from the session, registered by `lib/session.ts` at start-up. */
export type SessionBridge = {
  /** A token for the next call (refreshed first when it is about to expire), or null. */
  accessToken(): Promise<string | null>;
  /** After the server refused `staleToken`: a newer token, refreshing once if no one has yet. */
  renewAfterUnauthorized(staleToken: string): Promise<string | null>;
};

let bridge: SessionBridge = {
  accessToken: async () => null,
  renewAfterUnauthorized: async () => null,
};

export function connectSession(sessionBridge: SessionBridge): void {
  bridge = sessionBridge;
}

type AuthMode = { anonymous?: boolean; bearer?: string };

/** Options for a call that must not carry the session's token (sign-in, refresh, sign-up). */
export function anonymous(options: Options = {}): Options {
  return { ...options, context: { ...options.context, anonymous: true } };
}

/** Options for a call made with a token that is not (yet) the session's, e.g. a recovery session. */
export function withBearer(token: string, options: Options = {}): Options {
  return { ...options, context: { ...options.context, bearer: token } };
}

function authModeOf(options: { context?: Record<string, unknown> }): AuthMode {
  const context = options.context ?? {};
  return {
    anonymous: context['anonymous'] === true,
    bearer: typeof context['bearer'] === 'string' ? context['bearer'] : undefined,
  };
}

function bearerOf(request: Request): string | null {
  const header = request.headers.get('Authorization');
  return header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : null;
}

export const http = ky.create({
  prefixUrl: '/',
  timeout: 15_000,
  // Commands are not idempotent and reads are cheap to repeat by hand: no silent retries.
  retry: 0,
  hooks: {
    beforeRequest: [
      async (request, options) => {
        if (request.headers.has('Authorization')) return;
        const mode = authModeOf(options);
        if (mode.anonymous) return;
        const token = mode.bearer ?? (await bridge.accessToken());
        if (token) request.headers.set('Authorization', `Bearer ${token}`);
      },
    ],
    afterResponse: [
      async (request, options, response) => {
        if (response.status !== 401) return response;
        const mode = authModeOf(options);
        const stale = bearerOf(request);
        // Only the session's own token is renewed; an explicit one is the caller's business.
        if (mode.anonymous || mode.bearer || !stale) return response;
        const fresh = await bridge.renewAfterUnauthorized(stale);
        if (!fresh || fresh === stale) return response;
        // `request` is ky's unread copy, so its body can still be sent.
        const retried = new Request(request);
        retried.headers.set('Authorization', `Bearer ${fresh}`);
        return globalThis.fetch(retried);
      },
    ],
  },
});

/** A failed call: `status` is null when no answer came back at all; `code` is the server's machine code. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    message: string,
    readonly status: number | null,
    readonly body: unknown = null,
    readonly code: string | null = codeOf(body),
  ) {
    super(message);
  }
}

const NO_ANSWER = 'Could not reach the server. Please check your connection.';
const TIMED_OUT = 'The server did not answer in time. Please try again.';

function relative(path: string): string {
  return path.replace(/^\/+/, '');
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function codeOf(body: unknown): string | null {
  if (body && typeof body === 'object') {
    const code = (body as Record<string, unknown>)['code'] ?? (body as Record<string, unknown>)['error_code'];
    if (typeof code === 'string' && code) return code;
  }
  return null;
}

/** The server's own words for a failure: `{ "error": "..." }`, `{ "message": "..." }` or plain text. */
export function messageOf(body: unknown, fallback: string): string {
  if (typeof body === 'string' && body.trim()) return body.trim();
  if (body && typeof body === 'object') {
    for (const key of ['error', 'message', 'msg', 'error_description'] as const) {
      const value = (body as Record<string, unknown>)[key];
      if (typeof value === 'string' && value.trim()) return value;
      if (Array.isArray(value) && value.length > 0) return value.map(String).join(', ');
    }
  }
  return fallback;
}

/** Turns whatever a call threw into an ApiError that carries the server's message and code. */
export async function toApiError(error: unknown): Promise<ApiError> {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPError) {
    const body = await readBody(error.response);
    return new ApiError(messageOf(body, `Request failed (${error.response.status}).`), error.response.status, body);
  }
  if (error instanceof TimeoutError) return new ApiError(TIMED_OUT, null);
  // A call the caller cancelled is not a failure to report: let the abort through.
  if (error instanceof DOMException && error.name === 'AbortError') throw error;
  return new ApiError(NO_ANSWER, null);
}

async function send<T>(path: string, options: Options): Promise<{ body: T; headers: Headers }> {
  try {
    const response = await http(relative(path), options);
    return { body: (await readBody(response)) as T, headers: response.headers };
  } catch (error) {
    throw await toApiError(error);
  }
}

async function call<T>(path: string, options: Options): Promise<T> {
  return (await send<T>(path, options)).body;
}

export function getJson<T>(path: string, options: Options = {}): Promise<T> {
  return call<T>(path, { ...options, method: 'get' });
}

export function postJson<T>(path: string, json?: unknown, options: Options = {}): Promise<T> {
  return call<T>(path, { ...options, method: 'post', json });
}

/** A POST whose answer headers matter too, e.g. a list's X-Total-Count. */
export function postJsonWithHeaders<T>(path: string, json?: unknown, options: Options = {}): Promise<{ body: T; headers: Headers }> {
  return send<T>(path, { ...options, method: 'post', json });
}

export function putJson<T>(path: string, json?: unknown, options: Options = {}): Promise<T> {
  return call<T>(path, { ...options, method: 'put', json });
}

export function patchJson<T>(path: string, json?: unknown, options: Options = {}): Promise<T> {
  return call<T>(path, { ...options, method: 'patch', json });
}

export function deleteJson<T>(path: string, options: Options = {}): Promise<T> {
  return call<T>(path, { ...options, method: 'delete' });
}

export type StatusAndBody<T> = { status: number; ok: boolean; body: T | null };

/**
 * A call whose error statuses still carry a useful body (e.g. 503 from /healthz,
 * `{success: false}` from a check). Only a missing answer throws.
 */
export async function requestWithStatus<T>(method: 'get' | 'post' | 'put', path: string, options: Options = {}): Promise<StatusAndBody<T>> {
  try {
    const response = await http(relative(path), { ...options, method, throwHttpErrors: false });
    return { status: response.status, ok: response.ok, body: (await readBody(response)) as T | null };
  } catch (error) {
    throw await toApiError(error);
  }
}

export function getWithStatus<T>(path: string, options: Options = {}): Promise<StatusAndBody<T>> {
  return requestWithStatus<T>('get', path, options);
}
