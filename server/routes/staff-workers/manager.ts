import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreateWorkerBody,
  ManagedUsers,
  ManagedUsersBody,
  ResetWorkerPasswordBody,
  WorkerCreated,
  WorkerPasswordReset,
} from '../../../ledger/contract/staff-workers.js';
import { authOf } from '../../auth/guard.js';
import { AuthError } from '../../auth/errors.js';
import { passwordProblem } from '../../auth/password-policy.js';
import { temporaryPassword } from '../../auth/staff-accounts.js';
import { badRequest, conflict } from '../../errors.js';
import { assertManagesWorker, ONLY_MANAGERS, onlyFor } from '../../shared/access.js';
import { managedCustomers } from './queries.js';

export const autoPrefix = '/functions/v1';

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The Manager Dashboard (spec 002): create a worker (who reports to the manager), list and
 * reset own workers, and list the customers those workers own.
 */
const staffManagerRoutes: FastifyPluginAsyncZod = async (app) => {
  const { accounts } = app.authServices;
  const db = accounts.db;
  app.post(
    '/create-worker-for-manager',
    {
      config: onlyFor(['MANAGER'], ONLY_MANAGERS),
      schema: {
        tags: ['functions'],
        response: { 201: WorkerCreated },
        body: CreateWorkerBody,
      },
    },
    async (request, reply) => {
      const manager = authOf(request);
      const fullName = request.body.fullName?.trim() ?? '';
      const email = request.body.email?.trim() ?? '';
      const password = request.body.password ?? '';
      if (!fullName || !email || !password) throw badRequest('Please fill in all fields.');
      const problem = passwordProblem(password);
      if (problem) throw badRequest(problem);
      if (!EMAIL_SHAPE.test(email)) throw badRequest('Please enter a valid email address.');
      const actor = { id: manager.userId, role: manager.role };
      let workerId: string;
      try {
        // The manager chose this password, so the worker replaces it at first sign-in.
        workerId = await accounts.createAccount({
          email,
          password,
          fullName,
          role: 'WORKER',
          source: 'staff',
          requiresPasswordChange: true,
          emailConfirmed: true,
          actor,
        });
      } catch (err) {
        if (err instanceof AuthError && err.code === 'email_exists')
          throw conflict('A user with this email already exists. Please try a different email.');
        throw err;
      }
      await accounts.record(workerId, { type: 'AssignToManager', managerId: manager.userId }, actor);
      reply.status(201);
      return {
        success: true,
        message: `Worker account for ${email} created successfully!`,
        worker: { id: workerId, full_name: fullName, email },
      };
    },
  );

  app.post(
    '/reset-worker-password',
    {
      config: onlyFor(['MANAGER', 'ADMIN'], ONLY_MANAGERS),
      schema: { tags: ['functions'], response: { 200: WorkerPasswordReset }, body: ResetWorkerPasswordBody },
    },
    async (request) => {
      const manager = authOf(request);
      await assertManagesWorker(db, manager, request.body.workerId);
      const actor = { id: manager.userId, role: manager.role };
      const password = temporaryPassword();
      // The flag first: there is no moment in which the temporary password opens a normal session.
      await accounts.record(request.body.workerId, { type: 'RequirePasswordChange' }, actor);
      await accounts.changePassword(request.body.workerId, password, { sessionId: null, method: 'staff-reset', actor, log: request.log });
      // Shown once to the manager; it is in no event, log or table.
      return { success: true, temporaryPassword: password };
    },
  );

  app.post(
    '/get-users-for-manager',
    {
      config: onlyFor(['MANAGER', 'ADMIN'], 'Access Denied: Only managers can list their workers\u2019 users.'),
      schema: {
        tags: ['functions'],
        response: { 200: ManagedUsers },
        body: ManagedUsersBody,
      },
    },
    async (request) => {
      const staff = authOf(request);
      const { page, perPage } = request.body;
      const search = request.body.searchQuery?.trim() ?? '';
      // A manager sees the customers their workers claimed; an admin sees every customer.
      const { rows, totalCount } = await managedCustomers(db, staff.role === 'MANAGER' ? staff.userId : null, search, page, perPage);
      return {
        users: rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() })),
        totalCount,
      };
    },
  );
};

export default staffManagerRoutes;
