import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApprovalList } from '../../../ledger/contract/approvals.js';
import { ByUserId } from '../../../ledger/contract/common.js';
import { authOf } from '../../auth/guard.js';
import { assertCanManageUser } from '../../shared/access.js';

export const autoPrefix = '/api/v1';

/**
 * A customer's approval requests for the profile screens (docs/api-staff.md, "Approvals"; the
 * checker's and maker's calls are ./functions.ts), with the rule's limit per action (read-only:
 * the screens tell before a submit; the wallet decider still judges every action). Lapses the
 * requests past their expiry first.
 */
const approvalApi: FastifyPluginAsyncZod = async (app) => {
  const { ledger, fourEyes } = app;
  const db = ledger.database.db;

  app.get('/users/:userId/approvals', { schema: { tags: ['api'], response: { 200: ApprovalList }, params: ByUserId } }, async (request) => {
    const staff = authOf(request);
    await assertCanManageUser(db, staff, request.params.userId);
    await fourEyes.expireDue();
    // The rule's limit too: the profile's transaction dialogs say before a submit that an action above it will wait.
    return { approvals: await fourEyes.read({ userId: request.params.userId }), limitUsd: fourEyes.limitUsd.toFixed() };
  });
};

export default approvalApi;
