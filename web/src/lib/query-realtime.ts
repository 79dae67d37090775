import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useRealtime, type Topic } from './realtime.js';

/**
 * The realtime hints (lib/realtime.ts) mark cached answers stale: every query under one of
 * `keys` is read again when an event arrives on `topic` (and after a reconnect, which sends
 * a hint on each topic), so the screens showing them update by themselves.
 */
export function useRefetchOn(topic: Topic, keys: readonly QueryKey[]): void {
  const client = useQueryClient();
  useRealtime(topic, () => {
    for (const queryKey of keys) void client.invalidateQueries({ queryKey });
  });
}
