import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AnnouncementPosted,
  Announcements,
  AnnouncementsQuery,
  CreateAnnouncementBody,
  WorkerManager,
  WorkerManagerBody,
} from '../../../ledger/contract/staff-workers.js';
import { authOf } from '../../auth/guard.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import { AnnouncementError, announcementsDecider } from '../../../ledger/announcements/announcements.js';
import { onlyFor, STAFF_ROLES } from '../../shared/access.js';
import { announcementById, latestAnnouncements, roleAndManagerOf } from './queries.js';

export const autoPrefix = '/api/v1';

const NOT_FOR_YOU = 'Access Denied: These announcements are not for you.';

/**
 * Announcements (spec 002): a manager posts to all their workers (`create_announcement`),
 * a worker finds their manager (`get_worker_manager`) and reads the latest posts.
 */
const announcementRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ledger } = app;
  const db = ledger.database.db;
  app.post(
    '/rpc/create_announcement',
    {
      config: onlyFor(['MANAGER'], 'Access Denied: Only managers can send announcements.'),
      schema: {
        tags: ['api'],
        response: { 201: AnnouncementPosted },
        body: CreateAnnouncementBody,
      },
    },
    async (request, reply) => {
      const manager = authOf(request);
      if (request.body.p_manager_id !== manager.userId) throw forbidden('Access Denied: You can only announce to your own workers.');
      const announcementId = randomUUID();
      try {
        await ledger.execute(
          announcementsDecider,
          manager.userId,
          { type: 'PostAnnouncement', announcementId, message: request.body.p_message },
          {
            actor: { id: manager.userId, role: manager.role },
          },
        );
      } catch (err) {
        if (err instanceof AnnouncementError) throw badRequest(err.message);
        throw err;
      }
      const announcement = await announcementById(db, announcementId);
      reply.status(201);
      return {
        success: true,
        announcement: announcement ? { ...announcement, created_at: new Date(announcement.created_at).toISOString() } : null,
      };
    },
  );

  app.post(
    '/rpc/get_worker_manager',
    {
      config: onlyFor(STAFF_ROLES, 'Access Denied: Your role cannot view workers.'),
      schema: { tags: ['api'], response: { 200: WorkerManager }, body: WorkerManagerBody },
    },
    async (request) => {
      const staff = authOf(request);
      const workerId = request.body.p_worker_id;
      if (staff.role === 'WORKER' && workerId !== staff.userId) throw forbidden('Access Denied: You can only look up your own manager.');
      const worker = await roleAndManagerOf(db, workerId);
      if (!worker || worker.role !== 'WORKER') throw notFound('Worker not found.');
      if (staff.role === 'MANAGER' && worker.manager_id !== staff.userId)
        throw forbidden('Access Denied: This worker does not report to you.');
      return { managerId: worker.manager_id };
    },
  );

  // The spec's direct read: announcements by manager_id, newest first, at most 5.
  app.get(
    '/announcements',
    {
      config: onlyFor(STAFF_ROLES, NOT_FOR_YOU),
      schema: {
        tags: ['api'],
        response: { 200: Announcements },
        querystring: AnnouncementsQuery,
      },
    },
    async (request) => {
      const staff = authOf(request);
      const managerId = request.query.manager_id;
      const allowed =
        staff.role === 'ADMIN' ||
        (staff.role === 'MANAGER' && staff.userId === managerId) ||
        (staff.role === 'WORKER' && staff.user.manager_id === managerId);
      if (!allowed) throw forbidden(NOT_FOR_YOU);
      const rows = await latestAnnouncements(db, managerId, request.query.limit);
      return rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() }));
    },
  );
};

export default announcementRoutes;
