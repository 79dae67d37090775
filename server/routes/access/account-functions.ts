import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { passwordProblem } from '../../auth/password-policy.js';
import { authOf } from '../../auth/guard.js';
import { Done, ErrorAnswer } from '../../../ledger/contract/common.js';
import { VerifyAndUpdatePasswordBody, WelcomeEmailBody } from '../../../ledger/contract/access.js';

export const autoPrefix = '/functions/v1';

/** `/functions/v1`: the account functions of spec 000 section 7.2 and spec 001's password call. */
const accountFunctionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { accounts, sessions } = app.authServices;
  app.post(
    '/log-login-details',
    { config: { auth: { allowAal1: true, allowPasswordChange: true } }, schema: { tags: ['functions'], response: { 200: Done } } },
    // The server records each sign-in itself when it completes (accounts.ts `recordSignIn`): this
    // call of the spec's sign-in flow is kept for the client and records nothing more.
    async () => ({ success: true }),
  );

  // Spec 000 section 7.2 keeps this call (bearer auth): the server sends the welcome mail at
  // confirmation, so this only makes sure the caller's own account got it. The spec's body
  // ({email, name}) is accepted and ignored: no caller chooses a mail's address or text.
  app.post(
    '/send-welcome-email',
    {
      config: { rateLimit: { max: 10, timeWindow: '1 minute' }, auth: { allowAal1: true, allowPasswordChange: true } },
      schema: {
        tags: ['functions'],
        response: { 200: Done },
        body: WelcomeEmailBody,
      },
    },
    async (request) => {
      await accounts.sendWelcome(authOf(request).userId, request.log);
      return { success: true };
    },
  );

  app.post(
    '/verify-and-update-password',
    {
      config: { rateLimit: { max: 10, timeWindow: '1 minute' }, auth: { allowPasswordChange: true } },
      schema: {
        tags: ['functions'],
        response: { 200: Done, 400: ErrorAnswer },
        body: VerifyAndUpdatePasswordBody,
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const { oldPassword, newPassword, verifyOnly } = request.body;
      // Wrong passwords count against the user: 10 in 15 minutes refuse further checks (429).
      if (!(await accounts.confirmPassword(auth.userId, oldPassword))) {
        return reply.status(400).send({ success: false, error: 'Password verification failed. Please check your password and try again.' });
      }
      if (verifyOnly) {
        // Confirms the person at the keyboard before a sensitive change (removing a second factor).
        await sessions.upgrade(auth.sessionId, { reauthenticatedAt: new Date() });
        return { success: true };
      }
      const problem = passwordProblem(newPassword);
      if (problem) return reply.status(400).send({ success: false, error: problem });
      await accounts.changePassword(auth.userId, newPassword, {
        sessionId: auth.sessionId,
        method: 'self',
        actor: { id: auth.userId, role: auth.role },
        log: request.log,
      });
      return { success: true };
    },
  );
};
export default accountFunctionRoutes;
