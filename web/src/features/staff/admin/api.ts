import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { StaffActionPageSchema } from '@ledger/contract/staff-activity.js';
import { getJson, http, toApiError } from '@/lib/api-client.js';
import { parseAnswer } from '@/lib/query.js';

/** A row of the Staff activity list (GET /api/v1/admin/staff-actions). */
export type { StaffAction, StaffActionPage } from '@ledger/contract/staff-activity.js';
import type { StaffActionPage } from '@ledger/contract/staff-activity.js';

const UNREADABLE = 'The staff activity could not be read.';

export type StaffActionFilters = { staff: string; customer: string; action: string; from: string; to: string };

/** The filters as query parameters: empty ones left out. */
function params(filters: StaffActionFilters): Record<string, string> {
  return Object.fromEntries(
    Object.entries(filters)
      .map(([k, v]) => [k, v.trim()])
      .filter(([, v]) => v !== ''),
  );
}

export async function staffActions(
  filters: StaffActionFilters,
  limit: number,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<StaffActionPage> {
  const answer = await getJson('api/v1/admin/staff-actions', {
    searchParams: { ...params(filters), limit, ...(cursor ? { cursor } : {}) },
    signal,
  });
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
    const response = await http.get('api/v1/admin/staff-actions', { searchParams: { ...params(filters), format: 'csv' } });
    const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'staff-activity.csv';
    return { blob: await response.blob(), fileName };
  } catch (error) {
    throw await toApiError(error);
  }
}
