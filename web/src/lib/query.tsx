import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
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

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // As before: a failed read shows its error (no silent repeats), data is read when a screen
      // opens and again on a realtime hint, not whenever the window gets focus.
      retry: false,
      refetchOnWindowFocus: false,
      staleTime: 0,
    },
    mutations: { retry: false },
  },
});

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
