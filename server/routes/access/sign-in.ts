import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { authOf } from '../../auth/guard.js';
import { authErrors } from '../../auth/errors.js';
import { trackMailWork, type Mailer } from '../../mail/mailer.js';
import { NoContent } from '../../../ledger/contract/common.js';
import {
  Accepted,
  ConfirmSignupQuery,
  OtpBody,
  RecoverBody,
  ResendBody,
  SecondStepAnswer,
  SessionAnswer,
  SignOutQuery,
  SignUpBody,
  TokenBody,
  TokenQuery,
  UserView,
  VerifyBody,
} from '../../../ledger/contract/access.js';
import { limit, requestInfo } from './shared.js';

export const autoPrefix = '/auth/v1';

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

/**
 * `/auth/v1`: the authentication calls of spec 000 section 7.1 (docs/api-auth.md) that sign up,
 * confirm, sign in and out, and send codes and links by mail. The account's own record is ./user.ts,
 * its second factors ./factors.ts, its live sessions ./sessions.ts.
 */
const signInRoutes: FastifyPluginAsyncZod = async (app) => {
  const { accounts, sessions, mfa, mailer } = app.authServices;
  const { authenticate } = app.authServices.guard;
  app.post(
    '/signup',
    {
      config: limit(10),
      schema: {
        tags: ['auth'],
        response: { 200: UserView },
        body: SignUpBody,
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
        querystring: ConfirmSignupQuery,
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
        body: VerifyBody,
      },
    },
    async (request) => {
      const body = request.body;
      if (body.type === 'recovery') return accounts.verifyRecovery(body.token, requestInfo(request));
      // An e-mailed code is a second step: it needs the session of the password step.
      const auth = await authenticate(request, { allowAal1: true, allowPasswordChange: true });
      return mfa.verifyEmailCode(auth, body.email, body.token.trim(), request.log);
    },
  );

  app.post(
    '/token',
    {
      config: limit(30),
      schema: {
        tags: ['auth'],
        response: { 200: SessionAnswer },
        querystring: TokenQuery,
        body: TokenBody,
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
        querystring: SignOutQuery,
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

  app.post(
    '/otp',
    {
      config: limit(10),
      schema: {
        tags: ['auth'],
        response: { 200: Accepted },
        body: OtpBody,
      },
    },
    async (request) => afterAnswer(request, mailer, () => mfa.sendEmailCode(request.body.email, requestInfo(request))),
  );

  app.post(
    '/recover',
    {
      config: limit(10),
      schema: { tags: ['auth'], response: { 200: Accepted }, body: RecoverBody },
    },
    async (request) => afterAnswer(request, mailer, () => accounts.recover(request.body.email, requestInfo(request))),
  );

  app.post('/resend', { config: limit(10), schema: { tags: ['auth'], response: { 200: Accepted }, body: ResendBody } }, async (request) =>
    afterAnswer(request, mailer, () => accounts.resendConfirmation(request.body.email, requestInfo(request))),
  );
};
export default signInRoutes;
