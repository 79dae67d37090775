import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApprovalDecided, ApprovalList, DecideApprovalBody, ListApprovalsBody } from '../../../ledger/contract/approvals.js';
import { authOf } from '../../auth/guard.js';
import { badRequest, notFound } from '../../errors.js';
import { APPROVAL_MESSAGES } from '../../../ledger/wallet/approvals.js';
import { assertRole, onlyFor, STAFF_ROLES } from '../../shared/access.js';
import { approvalRequestParties } from './queries.js';

export const autoPrefix = '/functions/v1';

/**
 * The two-person rule's calls (docs/api-staff.md, "Approvals"): the checker's list and
 * decision and the maker's own requests (a customer's requests for the profile screens are
 * ./api.ts). Each first lapses the requests past their expiry, so that no screen offers one.
 */
const approvalFunctions: FastifyPluginAsyncZod = async (app) => {
  const { ledger, fourEyes } = app;
  const db = ledger.database.db;

  app.post(
    '/list-approvals',
    {
      config: onlyFor(STAFF_ROLES, 'Access Denied: Only staff can see approval requests.'),
      schema: {
        tags: ['functions'],
        response: { 200: ApprovalList },
        body: ListApprovalsBody,
      },
    },
    async (request) => {
      const staff = authOf(request);
      await fourEyes.expireDue();
      const { scope, status } = request.body;
      if (scope === 'mine') return { approvals: await fourEyes.read({ makerId: staff.userId, status }) };
      assertRole(staff, ['MANAGER', 'ADMIN'], APPROVAL_MESSAGES.worker);
      // An admin sees every request; a manager those of the workers who report to them.
      const listed = await fourEyes.read({ status: status ?? 'pending', team: staff.role === 'MANAGER' ? staff.userId : undefined });
      // A request this checker may not decide (they created the maker or set their password
      // recently) says so, instead of offering buttons the decider will refuse.
      const refusals = new Map<string, string | null>();
      for (const a of listed) {
        if (a.status !== 'pending' || refusals.has(a.makerId)) continue;
        refusals.set(a.makerId, await fourEyes.separationRefusal(staff.userId, a.makerId));
      }
      const approvals = listed.map((a) => {
        const refusal = refusals.get(a.makerId);
        return refusal ? { ...a, decideRefusal: refusal } : a;
      });
      return { approvals, limitUsd: fourEyes.limitUsd.toFixed(), expiryHours: ledger.config.FOUR_EYES_EXPIRY_HOURS };
    },
  );

  app.post(
    '/decide-approval',
    {
      config: onlyFor(['MANAGER', 'ADMIN'], APPROVAL_MESSAGES.worker),
      schema: {
        tags: ['functions'],
        response: { 200: ApprovalDecided },
        body: DecideApprovalBody,
      },
    },
    async (request) => {
      const staff = authOf(request);
      const { requestId, decision } = request.body;
      const reason = request.body.reason?.trim() ?? '';
      if (!reason) throw badRequest(APPROVAL_MESSAGES.reasonRequired);
      const row = await approvalRequestParties(db, requestId);
      if (!row) throw notFound(APPROVAL_MESSAGES.notFound);
      // The decider refuses the maker, a worker, another team's manager, a second decision and an expired request.
      await fourEyes.decide(
        staff,
        { userId: row.user_id, requestId, makerId: row.maker_id },
        decision === 'approve',
        reason,
        request.ip ?? null,
      );
      const [view] = await fourEyes.read({ requestId });
      return { success: true, approval: view };
    },
  );
};

export default approvalFunctions;
