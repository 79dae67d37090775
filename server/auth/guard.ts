import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler, RouteOptions } from 'fastify';
import type { UsersTable } from '../db/schema.js';
import type { Accounts } from './accounts.js';
import { requiredAalFor } from './mfa.js';
import { recoveryExpired, type AccessClaims, type SessionService } from './sessions.js';
import { authErrors, AuthError } from './errors.js';
import { HttpError } from '../errors.js';

export interface AuthInfo {
  userId: string;
  sessionId: string;
  /** The role now (from the users table), not the one in a possibly older token. */
  role: UsersTable['role'];
  aal: 'aal1' | 'aal2';
  recovery: boolean;
  user: NonNullable<Awaited<ReturnType<Accounts['findById']>>>;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthInfo | null;
  }
  interface FastifyContextConfig {
    /**
     * Who may call this route, checked when the request arrives, before its body is read
     * (`protectRoutes`). Routes of the API prefixes need a session unless this is 'public'.
     */
    auth?: GuardOptions | 'public';
  }
}

export interface GuardOptions {
  /** Reachable before the second step (the second step itself, sign-in logging, logout). */
  allowAal1?: boolean;
  /** Reachable while a staff reset demands a new password. */
  allowPasswordChange?: boolean;
  /** Reachable with a reset-link session (which exists only to set a password). */
  allowRecovery?: boolean;
  /**
   * A reset-link session reaches this route at `aal1` even when the user has a second factor
   * (it cannot do a challenge); the route lets such a session set the password and nothing else.
   */
  allowRecoveryAtAal1?: boolean;
  /** Only callers with one of these roles pass; the others get 403 with `roleDenied`. */
  roles?: readonly UsersTable['role'][];
  /** The text of the 403 a caller of another role gets. */
  roleDenied?: string;
}

/** The API's call families (DESIGN.md): a route under them needs a session unless it says it is public. */
export const GUARDED_PREFIXES = ['/auth/v1/', '/functions/v1/', '/api/v1/'] as const;

/** What a route asks of its caller: null for a public one. */
export function accessOf(route: Pick<RouteOptions, 'url' | 'config'>): GuardOptions | null {
  const declared = (route.config as { auth?: GuardOptions | 'public' } | undefined)?.auth;
  if (declared === 'public') return null;
  if (declared) return declared;
  return GUARDED_PREFIXES.some((prefix) => route.url.startsWith(prefix)) ? {} : null;
}

/** Where a folder's `autohooks` file leaves what its routes ask (on the folder's encapsulated instance). */
const FOLDER_ACCESS = Symbol.for('wallet-ledger.folder-access');

/**
 * For a route folder's `autohooks` file (server/routes/<feature>/autohooks.ts): what every route
 * of the folder asks of its caller unless the route's own `config.auth` says otherwise. It only
 * declares; the guard's onRequest check (`protectRoutes`) stays the one place it is checked.
 */
export function declareFolderAccess(folder: FastifyInstance, access: GuardOptions): void {
  (folder as unknown as Record<symbol, GuardOptions>)[FOLDER_ACCESS] = access;
}

const BEARER = /^Bearer ([^\s]+)$/i;

/** The token of an `Authorization: Bearer <token>` header; throws without one. */
function bearerToken(header: string | undefined): string {
  const token = header === undefined ? undefined : BEARER.exec(header)?.[1];
  if (!token) throw new Error('no bearer token');
  return token;
}

/**
 * Every authenticated call: a valid token, a live session of that user, a user who is not
 * banned; then the gates of docs/api-auth.md (second step, forced password change,
 * recovery-only sessions). Decorates `request.auth`.
 */
export function createGuard(sessions: SessionService, verifyToken: (token: string) => AccessClaims) {
  async function authenticate(request: FastifyRequest, opts: GuardOptions = {}): Promise<AuthInfo> {
    let claims: AccessClaims;
    try {
      claims = verifyToken(bearerToken(request.headers.authorization));
    } catch {
      throw authErrors.notAuthenticated();
    }
    // Session, user and "has a verified factor?" in one round trip (sessions.ts `forRequest`).
    const found = await sessions.forRequest(claims.session_id);
    if (!found) throw authErrors.notAuthenticated();
    const { session, user, hasVerifiedFactor } = found;
    if (session.revoked_at || session.user_id !== claims.sub) throw authErrors.notAuthenticated();
    if (user.banned_until && new Date(user.banned_until) > new Date()) {
      await sessions.revokeAll(user.id);
      throw new AuthError(401, 'user_banned', 'User is banned');
    }
    if (recoveryExpired(session)) throw authErrors.notAuthenticated();
    if (session.recovery && !opts.allowRecovery) throw authErrors.passwordChangeRequired();
    const secondStepOwed = session.aal !== 'aal2' && requiredAalFor(user.active_mfa_method, hasVerifiedFactor) === 'aal2';
    if (secondStepOwed && !opts.allowAal1 && !(session.recovery && opts.allowRecoveryAtAal1)) throw authErrors.mfaRequired();
    if (user.requires_password_change && !opts.allowPasswordChange) throw authErrors.passwordChangeRequired();
    if (opts.roles && !opts.roles.includes(user.role)) throw new HttpError(403, opts.roleDenied ?? 'Access Denied.');
    request.auth = { userId: user.id, sessionId: session.id, role: user.role, aal: session.aal, recovery: session.recovery, user };
    return request.auth;
  }
  function requireAuth(opts: GuardOptions = {}): onRequestAsyncHookHandler {
    return async function guard(request: FastifyRequest, _reply: FastifyReply) {
      await authenticate(request, opts);
    };
  }
  /**
   * Checks every route registered after this on `app` and its children as its `config.auth`
   * (or its folder's `declareFolderAccess`, or its prefix) asks, at `onRequest`: an anonymous call is refused before its body is
   * parsed or validated, so a stranger learns nothing of the schema.
   */
  function protectRoutes(app: FastifyInstance): void {
    app.addHook('onRoute', function (this: FastifyInstance, route) {
      // A route of a folder with autohooks takes the folder's declaration unless it has its own.
      const folder = (this as unknown as Record<symbol, GuardOptions | undefined>)[FOLDER_ACCESS];
      if (folder && (route.config as { auth?: unknown } | undefined)?.auth === undefined) route.config = { ...route.config, auth: folder };
      const access = accessOf(route);
      if (!access) return;
      const own = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
      route.onRequest = [...own, requireAuth(access)];
    });
  }
  return { authenticate, requireAuth, protectRoutes };
}

export type Guard = ReturnType<typeof createGuard>;

/** The authenticated caller of a guarded route. */
export function authOf(request: FastifyRequest): AuthInfo {
  if (!request.auth) throw authErrors.notAuthenticated();
  return request.auth;
}
