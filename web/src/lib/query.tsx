import { hashKey, QueryClient, QueryClientProvider, type FetchQueryOptions, type Query } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import type { z } from 'zod';
import { ApiError } from './api-client.js';
import { useSession } from './session.js';

/*
 * The signed-in screens' data cache (TanStack Query). One client for the app, provided by the
 * dashboard shell; the sign-in screens do not load it. Each feature keeps its query and
 * mutation hooks in its `api/` folder and parses every answer with a zod schema, so a screen
 * works with checked data and with one kind of failure: an ApiError carrying the server's
 * words (`{ "error": "..." }`), the spec's texts unchanged.
 */

declare module '@tanstack/react-query' {
  interface Register {
    defaultError: ApiError;
  }
}

/**
 * Reads started before the screen that shows them (a signed-in page load asks for the overview's
 * data while its code is still on the way): the answer counts as fresh for this long, so the
 * screen's first look does not read it twice. A realtime hint or a mutation invalidates it as any,
 * and it ends when that screen closes.
 */
export const READ_AHEAD_FRESH_MS = 5_000;
/** Query hash -> when the read-ahead answer arrived; a later read of the key makes it plain again. */
const readAheadAt = new Map<string, number>();

function staleTime(query: Query): number {
  return readAheadAt.get(query.queryHash) === query.state.dataUpdatedAt ? READ_AHEAD_FRESH_MS : 0;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // As before: a failed read shows its error (no silent repeats), data is read when a screen
      // opens and again on a realtime hint, not whenever the window gets focus.
      retry: false,
      refetchOnWindowFocus: false,
      staleTime,
    },
    mutations: { retry: false },
  },
});

// The read-ahead's freshness serves the screen it was read for: once that screen lets go of the
// answer (navigating away), the next look reads it again as any.
queryClient.getQueryCache().subscribe((event) => {
  if (event.type === 'observerRemoved') readAheadAt.delete(event.query.queryHash);
});

/** Starts a read now, for a screen about to open; its answer is not read again by that screen's first look. */
export function readAhead<T>(options: FetchQueryOptions<T, ApiError, T, readonly unknown[]>): void {
  const hash = hashKey(options.queryKey);
  void queryClient.prefetchQuery(options).then(() => {
    const updatedAt = queryClient.getQueryCache().get(hash)?.state.dataUpdatedAt;
    if (updatedAt) readAheadAt.set(hash, updatedAt);
  });
}

/** The answer checked against its schema; a mismatch is a failure with the screen's own text. */
export function parseAnswer<S extends z.ZodType>(schema: S, body: unknown, failure: string): z.infer<S> {
  const result = schema.safeParse(body);
  if (!result.success) throw new ApiError(failure, 200, body);
  return result.data;
}

/** One user's cached answers never show to the next one signed in on the same tab. */
function useClearOnUserChange(): void {
  const userId = useSession((s) => s.user?.id ?? null);
  useEffect(() => () => queryClient.clear(), [userId]);
}

export function QueryProvider({ children }: { children: ReactNode }) {
  useClearOnUserChange();
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
