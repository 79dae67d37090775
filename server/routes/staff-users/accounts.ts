import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { TargetUserBody } from '../../../ledger/contract/common.js';
import { Banned, Done } from '../../../ledger/contract/staff-users.js';
import { authOf } from '../../auth/guard.js';
import { customerInReach } from '../../shared/access.js';

export const autoPrefix = '/functions/v1';

/** A ban lasts until this far ahead: "banned until further notice". */
const BAN_YEARS = 100;

/** Staff actions on a customer's account (spec 002 section 7), each checked on the server and recorded with its actor. */
const staffAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { accounts } = app.authServices;
  app.post('/ban-user', { schema: { tags: ['functions'], response: { 200: Banned }, body: TargetUserBody } }, async (request) => {
    const staff = authOf(request);
    await customerInReach(accounts, staff, request.body.targetUserId);
    const until = new Date();
    until.setUTCFullYear(until.getUTCFullYear() + BAN_YEARS);
    await accounts.ban(request.body.targetUserId, until, { id: staff.userId, role: staff.role });
    return { success: true, banned_until: until.toISOString() };
  });

  app.post('/unban-user', { schema: { tags: ['functions'], response: { 200: Done }, body: TargetUserBody } }, async (request) => {
    const staff = authOf(request);
    await customerInReach(accounts, staff, request.body.targetUserId);
    await accounts.record(request.body.targetUserId, { type: 'Unban' }, { id: staff.userId, role: staff.role });
    return { success: true };
  });
};

export default staffAccountRoutes;
