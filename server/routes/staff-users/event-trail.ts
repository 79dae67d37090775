import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ByUserId } from '../../../ledger/contract/common.js';
import { TrailPage, TrailQuery } from '../../../ledger/contract/staff-users.js';
import { authOf } from '../../auth/guard.js';
import { formatPosition } from '../../../ledger/event-store/port.js';
import { assertCanManageUser } from '../../shared/access.js';
import { isUuid } from '../../ids.js';
import { actorsByIds } from './queries.js';
import {
  kindOf,
  staffActionsOfTrail,
  summaryOf,
  userTrail,
  withoutCardNumbers,
  withoutSecrets,
  type Data,
} from '../../staff/event-trail.js';
import type { Party } from '../../../ledger/audit/staff-actions.js';
import { checkStream } from '../../../ledger/audit/log-seal.js';
import type { RecordedEvent } from '../../../ledger/event-store/port.js';

/** Whether each of the customer's streams verifies (its chain recomputed), and all of them. */
function chainOf(whole: RecordedEvent[]) {
  const byStream = new Map<string, RecordedEvent[]>();
  for (const e of whole) byStream.set(e.streamId, [...(byStream.get(e.streamId) ?? []), e]);
  const streams = [...byStream].map(([stream, events]) => {
    const checked = checkStream(events);
    const b = checked.firstBreak;
    return {
      stream,
      events: checked.events,
      verified: checked.ok,
      first_break: b
        ? { revision: b.revision, position: b.position, event_id: b.eventId, type: b.type, problem: b.problem, text: b.text }
        : null,
    };
  });
  const broken = streams.filter((s) => !s.verified);
  return {
    verified: broken.length === 0,
    text:
      broken.length === 0
        ? `Verified: every event of the customer's ${streams.length} stream${streams.length === 1 ? '' : 's'} matches its hash chain.`
        : `Does not verify: ${broken[0]!.first_break!.text}`,
    streams,
  };
}

export const autoPrefix = '/api/v1';

const METADATA_SHOWN = ['reason', 'ip', 'correlationId', 'causationId'] as const;

/** The Event trail tab: GET /api/v1/users/:userId/event-trail. */
const eventTrailRoutes: FastifyPluginAsyncZod = async (app) => {
  const { ledger } = app;
  const db = ledger.database.db;
  app.get(
    '/users/:userId/event-trail',
    {
      schema: {
        tags: ['api'],
        response: { 200: TrailPage },
        params: ByUserId,
        querystring: TrailQuery,
      },
    },
    async (request) => {
      const staff = authOf(request);
      const { userId } = request.params;
      const { kind, page, pageSize } = request.query;
      await assertCanManageUser(db, staff, userId);
      const whole = await userTrail(ledger.store, db, userId);
      const staffActions = staffActionsOfTrail(whole);
      const trail = whole.filter((e) => kind === 'all' || kindOf(e.type) === kind);
      const slice = trail.slice((page - 1) * pageSize, page * pageSize);
      const parties = slice.flatMap((e) => {
        const a = staffActions.get(e.eventId);
        return a ? [a.maker.id, a.checker?.id] : [];
      });
      const actorIds = [...new Set([...slice.map((e) => e.metadata.actorId), ...parties].filter(isUuid))];
      const actors = await actorsByIds(db, actorIds);
      const nameOf = new Map(actors.map((a) => [a.id, a.full_name || a.email]));
      const person = (p: Party) => ({
        ...p,
        name: p.id ? (nameOf.get(p.id) ?? 'Unknown') : p.role === 'OPERATOR' ? 'Operator (command line)' : 'Unknown',
      });
      const staffAction = (eventId: string) => {
        const a = staffActions.get(eventId);
        return a ? { ...a, maker: person(a.maker), checker: a.checker ? person(a.checker) : null } : null;
      };
      return {
        events: slice.map((e) => {
          const shown = withoutSecrets(e.data);
          const data = (e.type.startsWith('payment-method.') ? withoutCardNumbers(shown) : shown) as Data;
          const meta = e.metadata as Record<string, unknown>;
          return {
            id: e.eventId,
            stream: e.streamId,
            revision: e.revision.toString(),
            position: formatPosition(e.position),
            type: e.type,
            kind: kindOf(e.type),
            occurred_at: e.metadata.occurredAt ?? e.recordedAt.toISOString(),
            actor: {
              id: e.metadata.actorId,
              role: e.metadata.actorRole,
              name: nameOf.get(e.metadata.actorId) ?? (e.metadata.actorRole === 'SYSTEM' ? 'System' : 'Unknown'),
            },
            staff_action: staffAction(e.eventId),
            summary: summaryOf(e.type, data),
            data,
            metadata: withoutSecrets(
              Object.fromEntries(METADATA_SHOWN.filter((k) => meta[k] !== undefined && meta[k] !== null).map((k) => [k, meta[k]])),
            ) as Record<string, unknown>,
          };
        }),
        total: trail.length,
        page,
        pageSize,
        chain: chainOf(whole),
      };
    },
  );
};

export default eventTrailRoutes;
