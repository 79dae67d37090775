/** Spec 002 section 9: My Users and My Workers show 10 per page. */
export const STAFF_LIST_PAGE_SIZE = 10;

/**
 * The rows of one page, or null for the whole list: the spec's calls carry no paging, so a
 * caller that names neither page nor size gets every row, as the spec's answer has them.
 */
export function pageWindow(page: number | undefined, size: number | undefined): { limit: number; offset: number } | null {
  if (page === undefined && size === undefined) return null;
  const limit = size ?? STAFF_LIST_PAGE_SIZE;
  return { limit, offset: ((page ?? 1) - 1) * limit };
}
