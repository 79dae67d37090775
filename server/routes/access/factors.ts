import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../auth/guard.js';
import {
  Challenge,
  EnrolFactorBody,
  Enrolment,
  FactorRemoved,
  SecondStepAnswer,
  VerifyFactorBody,
} from '../../../ledger/contract/access.js';
import { ById } from '../../../ledger/contract/common.js';
import { assertRecentAuth, limit } from './shared.js';

export const autoPrefix = '/auth/v1';

/** `/auth/v1/factors` (spec 000 section 7.1): enrolling, challenging, verifying and removing an authenticator app. */
const factorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { accounts, mfa } = app.authServices;
  app.post(
    '/factors',
    {
      config: { auth: { allowAal1: true } },
      schema: {
        tags: ['auth'],
        response: { 200: Enrolment },
        body: EnrolFactorBody,
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
      schema: { tags: ['auth'], response: { 200: Challenge }, params: ById },
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
        params: ById,
        body: VerifyFactorBody,
      },
    },
    async (request) => mfa.verify(authOf(request), request.params.id, request.body.challenge_id, request.body.code.trim(), request.log),
  );
  app.delete(
    '/factors/:id',
    { config: { auth: { allowAal1: true } }, schema: { tags: ['auth'], response: { 200: FactorRemoved }, params: ById } },
    async (request) => mfa.remove(authOf(request), request.params.id, request.log),
  );
};
export default factorRoutes;
