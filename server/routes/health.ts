import { sql } from 'kysely';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { LedgerContext } from '../context.js';
import { isStaffCaller } from '../plugins/production-surface.js';

const HealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ kind: z.enum(['postgres', 'pglite']), ok: z.boolean() }),
  eventStore: z.enum(['postgres', 'eventstoredb']),
  projections: z.array(z.object({ name: z.string(), position: z.string(), lag: z.number().int(), lagCapped: z.boolean() })),
});
/** What an anonymous caller sees: ok or not, nothing of the set-up behind it. */
const AnonymousHealthSchema = z.object({ status: z.enum(['ok', 'degraded']) });
const HealthAnswer = z.union([HealthSchema, AnonymousHealthSchema]);

/** Events not yet applied, counted up to a cap so that a large backlog stays cheap to report. */
const LAG_CAP = 10_000;

export function healthRoutes(ledger: LedgerContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/healthz',
      { schema: { tags: ['health'], summary: 'Up or not; database reachability and projection lag for staff', response: { 200: HealthAnswer, 503: HealthAnswer } } },
      async (request, reply) => {
        let dbOk = true;
        const staff = await isStaffCaller(request);
        try {
          await sql`select 1`.execute(ledger.database.db);
        } catch {
          dbOk = false;
        }
        if (!staff) return reply.status(dbOk ? 200 : 503).send({ status: dbOk ? 'ok' : 'degraded' });
        const projections = await Promise.all(
          ledger.projector.runners.map(async (r) => {
            const pending = dbOk ? await ledger.store.readAll({ after: r.position, maxCount: LAG_CAP }).catch(() => []) : [];
            return {
              name: r.projection.name,
              position: `${r.position.commit}/${r.position.prepare}`,
              lag: pending.length,
              lagCapped: pending.length >= LAG_CAP,
            };
          }),
        );
        const body = {
          status: dbOk ? ('ok' as const) : ('degraded' as const),
          database: { kind: ledger.database.kind, ok: dbOk },
          eventStore: ledger.store.name,
          projections,
        };
        return reply.status(dbOk ? 200 : 503).send(body);
      },
    );
  };
}
