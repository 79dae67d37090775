import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { StaffActionPageSchema, type StaffActionName, type StaffActionsQuery } from '@ledger/contract/staff-activity.js';
import { getJson, http, toApiError } from '@/lib/api-client.js';
import { parseAnswer } from '@/lib/query.js';

/** A row of the Staff activity list (GET /api/v1/admin/staff-actions). */
export type { StaffAction, StaffActionPage } from '@ledger/contract/staff-activity.js';
import type { StaffActionPage } from '@ledger/contract/staff-activity.js';

const UNREADABLE = 'The staff activity could not be read.';

export type StaffActionFilters = { staff: string; customer: string; action: string; from: string; to: string };

/** The filters as the list's query (the contract's): empty ones left out. */
function query(filters: StaffActionFilters) {
  const given = (text: string) => text.trim() || undefined;
  return {
    staff: given(filters.staff),
    customer: given(filters.customer),
    // The form offers only the names the list answered with (its actionNames).
    action: given(filters.action) as StaffActionName | undefined,
    from: given(filters.from),
    to: given(filters.to),
  } satisfies z.input<typeof StaffActionsQuery>;
}

export async function staffActions(
  filters: StaffActionFilters,
  limit: number,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<StaffActionPage> {
  const search = { ...query(filters), limit, cursor: cursor ?? undefined } satisfies z.input<typeof StaffActionsQuery>;
  const answer = await getJson('api/v1/admin/staff-actions', { searchParams: search, signal });
  return parseAnswer(StaffActionPageSchema, answer, UNREADABLE);
}

/** One page of the list for these filters, from `cursor` (null: the newest); the page shown stays while the next loads. */
export function useStaffActions(filters: StaffActionFilters, limit: number, cursor: string | null) {
  return useQuery({
    queryKey: ['admin', 'staff-actions', filters, limit, cursor],
    queryFn: ({ signal }) => staffActions(filters, limit, cursor, signal),
    placeholderData: keepPreviousData,
  });
}

/** The filtered list as the server's CSV file. */
export async function staffActionsCsv(filters: StaffActionFilters): Promise<{ blob: Blob; fileName: string }> {
  try {
    const search = { ...query(filters), format: 'csv' } satisfies z.input<typeof StaffActionsQuery>;
    const response = await http.get('api/v1/admin/staff-actions', { searchParams: search });
    const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'staff-activity.csv';
    return { blob: await response.blob(), fileName };
  } catch (error) {
    throw await toApiError(error);
  }
}
