import { getWithStatus } from '../../../lib/api-client.js';

/** The body of GET /healthz, as the server sends it with 200 (ok) or 503 (degraded). */
export type ServiceHealthBody = {
  status: 'ok' | 'degraded';
  database?: { kind: string; ok: boolean };
  eventStore?: string;
  projections?: { name: string; lag: number }[];
};

export type ServiceState = 'ok' | 'degraded' | 'unreachable';

export type ServiceHealth = {
  state: ServiceState;
  body: ServiceHealthBody | null;
  checkedAt: Date;
};

function isHealthBody(value: unknown): value is ServiceHealthBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    ((value as { status?: unknown }).status === 'ok' || (value as { status?: unknown }).status === 'degraded')
  );
}

export async function getServiceHealth(signal?: AbortSignal): Promise<ServiceHealth> {
  const checkedAt = new Date();
  try {
    const { ok, body } = await getWithStatus<unknown>('healthz', { signal, timeout: 8_000 });
    if (!isHealthBody(body)) return { state: 'unreachable', body: null, checkedAt };
    return { state: ok && body.status === 'ok' ? 'ok' : 'degraded', body, checkedAt };
  } catch (error) {
    if (signal?.aborted) throw error;
    return { state: 'unreachable', body: null, checkedAt };
  }
}
