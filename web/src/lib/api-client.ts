import ky, { HTTPError, TimeoutError, type Options } from 'ky';

/**
 * The one HTTP client of the app. Paths are relative to the site root ('healthz',
 * 'auth/v1/token', 'functions/v1/create-swap-request'); a leading slash is dropped.
 */

export type AccessTokenSource = () => string | null | undefined;

let accessTokenSource: AccessTokenSource = () => null;

/** Lets the session store hand its current access token to every call. */
export function setAccessTokenSource(source: AccessTokenSource): void {
  accessTokenSource = source;
}

export const http = ky.create({
  prefixUrl: '/',
  timeout: 15_000,
  // Commands are not idempotent and reads are cheap to repeat by hand: no silent retries.
  retry: 0,
  hooks: {
    beforeRequest: [
      (request) => {
        const token = accessTokenSource();
        if (token && !request.headers.has('Authorization')) {
          request.headers.set('Authorization', `Bearer ${token}`);
        }
      },
    ],
  },
});

/** A failed call: `status` is null when no answer came back at all. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    message: string,
    readonly status: number | null,
    readonly body: unknown = null,
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

/** The server's own words for a failure: `{ "error": "..." }`, `{ "message": "..." }` or plain text. */
function messageOf(body: unknown, fallback: string): string {
  if (typeof body === 'string' && body.trim()) return body.trim();
  if (body && typeof body === 'object') {
    for (const key of ['error', 'message', 'msg', 'error_description'] as const) {
      const value = (body as Record<string, unknown>)[key];
      if (typeof value === 'string' && value.trim()) return value;
    }
  }
  return fallback;
}

/** Turns whatever a call threw into an ApiError that carries the server's message. */
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

async function call<T>(path: string, options: Options): Promise<T> {
  try {
    const response = await http(relative(path), options);
    return (await readBody(response)) as T;
  } catch (error) {
    throw await toApiError(error);
  }
}

export function getJson<T>(path: string, options: Options = {}): Promise<T> {
  return call<T>(path, { ...options, method: 'get' });
}

export function postJson<T>(path: string, json?: unknown, options: Options = {}): Promise<T> {
  return call<T>(path, { ...options, method: 'post', json });
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
 * A GET whose error statuses still carry a useful body (e.g. 503 from /healthz).
 * Only a missing answer throws.
 */
export async function getWithStatus<T>(path: string, options: Options = {}): Promise<StatusAndBody<T>> {
  try {
    const response = await http(relative(path), { ...options, method: 'get', throwHttpErrors: false });
    return { status: response.status, ok: response.ok, body: (await readBody(response)) as T | null };
  } catch (error) {
    throw await toApiError(error);
  }
}
