import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import type { Accounts, RequestInfo } from './accounts.js';
import type { SecondFactors } from './mfa.js';
import type { SessionService } from './sessions.js';
import { authOf, type Guard } from './guard.js';
import { authErrors } from './errors.js';
import { trackMailWork, type Mailer } from '../mail/mailer.js';
import { NoContent } from '../../ledger/contract/common.js';
import { Accepted, Challenge, Enrolment, FactorRemoved, SecondStepAnswer, SessionAnswer, UserView } from '../../ledger/contract/access.js';

const email = z
  .string()
  .trim()
  .min(3)
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Email address is invalid.');
const password = z.string().min(1).max(1024);
const security = z.object({ captcha_token: z.string().max(10_000).optional() }).optional();
/** A public call with a per-client limit (the guard's other routes need a session). */
const limit = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' }, auth: 'public' as const });

/**
 * Refuses (403 reauthentication_required) unless the caller gives the right current password or the
 * session signed in or confirmed its password in the last 5 minutes (accounts.ts RECENT_AUTH_MS).
 */
export async function assertRecentAuth(
  accounts: Accounts,
  sessionId: string,
  userId: string,
  currentPassword: string | undefined,
): Promise<void> {
  if (currentPassword !== undefined) {
    if (await accounts.confirmPassword(userId, currentPassword)) return;
    throw authErrors.reauthRequired();
  }
  if (!(await accounts.recentlyAuthenticated(sessionId))) throw authErrors.reauthRequired();
}

export function requestInfo(request: FastifyRequest): RequestInfo {
  const ua = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof ua === 'string' ? ua : null, log: request.log };
}

/**
 * Starts `work` once the answer is on its way and answers nothing of it: calls whose work
 * differs for a known and an unknown address (a look-up, a token, a mail) take the same time
 * either way. Its failure is logged.
 */
function afterAnswer(request: FastifyRequest, mailer: Mailer, work: () => Promise<void>): Record<string, never> {
  // Counted as mail on its way from now, so a shutdown waits for it before the database closes.
  let started!: () => void;
  trackMailWork(mailer, new Promise<void>((resolve) => (started = resolve)));
  setImmediate(() => {
    work()
      .catch((err: unknown) => request.log.error({ err }, 'work after the answer failed'))
      .finally(started);
  });
  return {};
}

/** `/auth/v1`: the authentication calls of spec 000 section 7.1 (docs/api-auth.md). */
export function authRoutes(deps: {
  accounts: Accounts;
  sessions: SessionService;
  mfa: SecondFactors;
  guard: Guard;
  mailer: Mailer;
}): FastifyPluginAsyncZod {
  const { accounts, sessions, mfa } = deps;
  const { authenticate } = deps.guard;
  return async (app) => {
    app.post(
      '/signup',
      {
        config: limit(10),
        schema: {
          tags: ['auth'],
          response: { 200: UserView },
          body: z.object({
            email,
            password,
            data: z.object({ full_name: z.string().trim().min(1).max(200) }),
            gotrue_meta_security: security,
          }),
        },
      },
      async (request) => {
        const b = request.body;
        return accounts.signUp(
          { email: b.email, password: b.password, fullName: b.data.full_name, captchaToken: b.gotrue_meta_security?.captcha_token },
          requestInfo(request),
        );
      },
    );

    app.get(
      '/verify',
      {
        config: limit(30),
        schema: {
          tags: ['auth'],
          response: { 303: NoContent },
          querystring: z.object({ type: z.literal('signup'), token: z.string().max(200) }),
        },
      },
      async (request, reply) => {
        const ok = await accounts.confirmSignup(request.query.token, request.log);
        return reply.redirect(ok ? '/login?confirmed=1' : '/login?confirm_error=1', 303);
      },
    );

    app.post(
      '/verify',
      {
        config: limit(30),
        schema: {
          tags: ['auth'],
          response: { 200: SecondStepAnswer },
          body: z.discriminatedUnion('type', [
            z.object({ type: z.literal('email'), email, token: z.string().max(20) }),
            z.object({ type: z.literal('recovery'), token: z.string().max(200) }),
          ]),
        },
      },
      async (request) => {
        const body = request.body;
        if (body.type === 'recovery') return accounts.verifyRecovery(body.token, requestInfo(request));
        // An e-mailed code is a second step: it needs the session of the password step.
        const auth = await authenticate(request, { allowAal1: true, allowPasswordChange: true });
        return mfa.verifyEmailCode(auth, body.email, body.token.trim());
      },
    );

    app.post(
      '/token',
      {
        config: limit(30),
        schema: {
          tags: ['auth'],
          response: { 200: SessionAnswer },
          querystring: z.object({ grant_type: z.enum(['password', 'refresh_token']) }),
          body: z.union([
            z.object({ email, password, gotrue_meta_security: security }),
            z.object({ refresh_token: z.string().min(1).max(200) }),
          ]),
        },
      },
      async (request) => {
        const body = request.body;
        if (request.query.grant_type === 'password') {
          if (!('email' in body)) throw authErrors.invalidCredentials();
          return accounts.signInWithPassword(
            { email: body.email, password: body.password, captchaToken: body.gotrue_meta_security?.captcha_token },
            requestInfo(request),
          );
        }
        if (!('refresh_token' in body)) throw authErrors.refreshInvalid();
        const tokens = await sessions.refresh(body.refresh_token, async (userId) => {
          const u = await accounts.findById(userId);
          return u ? { role: u.role, banned: Boolean(u.banned_until && new Date(u.banned_until) > new Date()) } : null;
        });
        const user = (await accounts.findById(tokens.userId))!;
        const { userId: _omit, ...session } = tokens;
        return { ...session, user: await accounts.view(user) };
      },
    );

    app.post(
      '/logout',
      {
        config: { auth: { allowAal1: true, allowPasswordChange: true, allowRecovery: true } },
        schema: {
          tags: ['auth'],
          response: { 204: NoContent },
          querystring: z.object({ scope: z.enum(['global', 'local', 'others']).default('local') }),
        },
      },
      async (request, reply) => {
        const auth = authOf(request);
        const scope = request.query.scope;
        if (scope === 'local') await sessions.revoke(auth.sessionId);
        else if (scope === 'global') await sessions.revokeAll(auth.userId);
        else await sessions.revokeAll(auth.userId, auth.sessionId);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/user',
      {
        config: { auth: { allowAal1: true, allowPasswordChange: true, allowRecovery: true } },
        schema: { tags: ['auth'], response: { 200: UserView } },
      },
      async (request) => accounts.view(authOf(request).user),
    );

    app.put(
      '/user',
      {
        // A reset-link session may set the password at aal1: the second factor still guards
        // the next sign-in, and every session ends with the change.
        config: { auth: { allowPasswordChange: true, allowRecovery: true, allowRecoveryAtAal1: true } },
        schema: {
          tags: ['auth'],
          response: { 200: UserView },
          body: z.object({
            password: z.string().max(1024).optional(),
            /** The current password, unless the session signed in or confirmed it in the last 5 minutes. */
            current_password: z.string().max(1024).optional(),
            data: z
              .object({
                active_mfa_method: z.enum(['totp', 'email']).nullable().optional(),
                requires_password_change: z.literal(false).optional(),
              })
              .optional(),
          }),
        },
      },
      async (request) => {
        const auth = authOf(request);
        const { password: newPassword, current_password: currentPassword, data } = request.body;
        if (auth.recovery && data?.active_mfa_method !== undefined) throw authErrors.recoveryPasswordOnly();
        if (newPassword !== undefined) {
          const method = auth.recovery ? 'recovery' : auth.user.requires_password_change ? 'forced' : 'self';
          // A token alone does not change the password: the reset link, the current password or a recent sign-in does.
          if (!auth.recovery) await assertRecentAuth(accounts, auth.sessionId, auth.userId, currentPassword);
          await accounts.changePassword(auth.userId, newPassword, {
            sessionId: auth.sessionId,
            method,
            actor: { id: auth.userId, role: auth.role },
            log: request.log,
          });
        } else if (auth.recovery || auth.user.requires_password_change) {
          throw authErrors.passwordChangeRequired();
        }
        if (data?.active_mfa_method !== undefined) {
          const method = data.active_mfa_method;
          if (method !== null) await mfa.assertMethodAllowed(auth.userId, method);
          if (method === 'email') await mfa.requireFresh(auth.sessionId, 'email');
          if (method === null) await mfa.requireFresh(auth.sessionId, 'reauth');
          const previous = auth.user.active_mfa_method;
          await accounts.record(auth.userId, { type: 'SetMfaMethod', method }, { id: auth.userId, role: auth.role });
          // Choosing the app follows its verification, whose mail ('A second factor was added') told it already.
          if (previous !== method && method !== 'totp')
            await accounts.notify(auth.userId, { kind: 'mfa-method', at: new Date(), method, previous }, request.log);
        }
        return accounts.view((await accounts.findById(auth.userId))!);
      },
    );

    app.post(
      '/otp',
      {
        config: limit(10),
        schema: {
          tags: ['auth'],
          response: { 200: Accepted },
          body: z.object({ email, create_user: z.literal(false).optional(), data: z.record(z.string(), z.unknown()).optional() }),
        },
      },
      async (request) => afterAnswer(request, deps.mailer, () => mfa.sendEmailCode(request.body.email, requestInfo(request))),
    );

    app.post(
      '/recover',
      {
        config: limit(10),
        schema: { tags: ['auth'], response: { 200: Accepted }, body: z.object({ email, redirect_to: z.string().max(2000).optional() }) },
      },
      async (request) => afterAnswer(request, deps.mailer, () => accounts.recover(request.body.email, requestInfo(request))),
    );

    app.post(
      '/resend',
      { config: limit(10), schema: { tags: ['auth'], response: { 200: Accepted }, body: z.object({ type: z.literal('signup'), email }) } },
      async (request) => afterAnswer(request, deps.mailer, () => accounts.resendConfirmation(request.body.email, requestInfo(request))),
    );

    const factorParams = z.object({ id: z.uuid() });
    app.post(
      '/factors',
      {
        config: { auth: { allowAal1: true } },
        schema: {
          tags: ['auth'],
          response: { 200: Enrolment },
          body: z.object({ factor_type: z.literal('totp'), friendly_name: z.string().max(100).optional() }),
        },
      },
      async (request) => {
        const auth = authOf(request);
        // A stolen access token alone cannot add the thief's authenticator.
        await assertRecentAuth(accounts, auth.sessionId, auth.userId, undefined);
        return mfa.enrol(auth, auth.user.email, request.body.friendly_name);
      },
    );
    app.post(
      '/factors/:id/challenge',
      // The second step comes before a forced password change (spec 4.1, step 1), as for e-mailed codes.
      {
        config: { ...limit(30), auth: { allowAal1: true, allowPasswordChange: true } },
        schema: { tags: ['auth'], response: { 200: Challenge }, params: factorParams },
      },
      async (request) => mfa.challenge(authOf(request), request.params.id),
    );
    app.post(
      '/factors/:id/verify',
      {
        config: { ...limit(30), auth: { allowAal1: true, allowPasswordChange: true } },
        // `code`: the app's 6 digits, or one of the recovery codes (xxxxx-xxxxx) at the second step.
        schema: {
          tags: ['auth'],
          response: { 200: SecondStepAnswer },
          params: factorParams,
          body: z.object({ challenge_id: z.uuid(), code: z.string().max(20) }),
        },
      },
      async (request) => mfa.verify(authOf(request), request.params.id, request.body.challenge_id, request.body.code.trim(), request.log),
    );
    app.delete(
      '/factors/:id',
      { config: { auth: { allowAal1: true } }, schema: { tags: ['auth'], response: { 200: FactorRemoved }, params: factorParams } },
      async (request) => mfa.remove(authOf(request), request.params.id, request.log),
    );
  };
}
