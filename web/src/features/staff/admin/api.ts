import { getJson, http } from '@/lib/api-client.js';

/** A row of the Staff activity list (GET /api/v1/admin/staff-actions). */
export type { StaffAction, StaffActionPage } from '@ledger/contract/staff-activity.js';
import type { StaffActionPage } from '@ledger/contract/staff-activity.js';

export type StaffActionFilters = { staff: string; customer: string; action: string; from: string; to: string };

/** The filters as query parameters: empty ones left out. */
function params(filters: StaffActionFilters): Record<string, string> {
  return Object.fromEntries(
    Object.entries(filters)
      .map(([k, v]) => [k, v.trim()])
      .filter(([, v]) => v !== ''),
  );
}

export function staffActions(
  filters: StaffActionFilters,
  limit: number,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<StaffActionPage> {
  return getJson<StaffActionPage>('api/v1/admin/staff-actions', {
    searchParams: { ...params(filters), limit, ...(cursor ? { cursor } : {}) },
    signal,
  });
}

/** The filtered list as the server's CSV file. */
export async function staffActionsCsv(filters: StaffActionFilters): Promise<{ blob: Blob; fileName: string }> {
  const response = await http.get('api/v1/admin/staff-actions', { searchParams: { ...params(filters), format: 'csv' } });
  const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'staff-activity.csv';
  return { blob: await response.blob(), fileName };
}
