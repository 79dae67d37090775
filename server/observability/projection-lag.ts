import type { LedgerContext } from '../context.js';
import { comparePositions } from '../../ledger/event-store/port.js';

export interface ProjectionLag {
  name: string;
  position: string;
  lag: number;
  /** The count stopped at the cap: the lag is at least `lag`. */
  lagCapped: boolean;
}

/**
 * Each read model's lag, counted from one read of at most `cap` events after the one furthest
 * behind (the read models usually share one position), so a probe costs one bounded query.
 * Read by /healthz and /readyz (server/routes/health/) and the lag gauge of /metrics.
 */
export async function projectionLags(ledger: LedgerContext, cap: number): Promise<ProjectionLag[]> {
  const runners = ledger.projector.runners;
  const pending = cap > 0 ? await ledger.store.readAll({ after: ledger.projector.position, maxCount: cap }) : [];
  const capped = pending.length >= cap;
  return runners.map((r) => ({
    name: r.projection.name,
    position: `${r.position.commit}/${r.position.prepare}`,
    lag: pending.filter((e) => comparePositions(e.position, r.position) > 0).length,
    lagCapped: capped,
  }));
}
