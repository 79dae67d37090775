import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../auth/guard.js';
import { authErrors } from '../../auth/errors.js';
import { UpdateUserBody, UserView } from '../../../ledger/contract/access.js';
import { assertRecentAuth } from './shared.js';

export const autoPrefix = '/auth/v1';

/** `/auth/v1/user` (spec 000 section 7.1): the signed-in account, its password and its second-factor method. */
const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const { accounts, mfa } = app.authServices;
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
        body: UpdateUserBody,
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
};
export default userRoutes;
