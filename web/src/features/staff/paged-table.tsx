import { useEffect, useState, type ReactNode } from 'react';
import { Banner } from '@/components/banner.js';
import { Pager } from '@/components/pager.js';
import { SkeletonRows } from '@/components/skeleton-rows.js';

/** Spec 002 section 9: My Users and My Workers show 10 per page. */
export const STAFF_LIST_PAGE_SIZE = 10;

export type RowsPage<T> = { rows: T[]; totalCount: number };

type PagedTableProps<T> = {
  titleId: string;
  title: string;
  /** One page from the server; null while what it needs (e.g. the signed-in id) is not known yet. */
  loadPage: ((page: number, pageSize: number) => Promise<RowsPage<T>>) | null;
  /** The banner text when a page does not load. */
  loadFailure: (error: unknown) => string;
  loadingLabel: string;
  emptyText: string;
  /** The header cells of the data columns; a last column holds each row's actions. */
  columns: string[];
  rowKey: (row: T) => string;
  /** The data cells of a row, one per column. */
  cells: (row: T) => ReactNode;
  actions: (row: T) => ReactNode;
  /** A failed row action, shown where a load failure would be. */
  actionError?: string | null;
  /** Anything beside the table, e.g. a dialog that an action opens. */
  children?: ReactNode;
};

/**
 * A staff list (My Users, My Workers): a titled card with a table of one page, its row
 * actions and the pager under it. Each page is asked of the server when it is shown.
 */
export function PagedTable<T>({
  titleId,
  title,
  loadPage,
  loadFailure,
  loadingLabel,
  emptyText,
  columns,
  rowKey,
  cells,
  actions,
  actionError = null,
  children,
}: PagedTableProps<T>) {
  const [page, setPage] = useState(1);
  const [shown, setShown] = useState<RowsPage<T> | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    if (!loadPage) return;
    let cancelled = false;
    // The page on screen stays until the next one arrives, so the table does not flicker.
    loadPage(page, STAFF_LIST_PAGE_SIZE)
      .then((answer) => {
        if (cancelled) return;
        setShown(answer);
        setLoadError(null);
      })
      .catch((err: unknown) => {
        if (cancelled) return;
        setShown(null);
        setLoadError(loadFailure(err));
      });
    return () => {
      cancelled = true;
    };
    // loadFailure only words a failure: a new one is no reason to load again.
  }, [loadPage, page]);

  const error = loadError ?? actionError;
  const pageCount = Math.max(1, Math.ceil((shown?.totalCount ?? 0) / STAFF_LIST_PAGE_SIZE));
  return (
    <section className="card staff-card" aria-labelledby={titleId}>
      <h2 id={titleId} className="card__title">
        {title}
      </h2>
      {error && <Banner variant="error">{error}</Banner>}
      {!shown && !error && <SkeletonRows rows={5} columns={columns.length + 1} label={loadingLabel} />}
      {shown && shown.totalCount === 0 && <p className="empty-text">{emptyText}</p>}
      {shown && shown.rows.length > 0 && (
        <div className="staff-table-wrap">
          <table className="staff-table table--stack">
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ))}
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.rows.map((row) => (
                <tr key={rowKey(row)}>
                  {cells(row)}
                  <td className="staff-table__actions">{actions(row)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} pageCount={pageCount} onPageChange={setPage} />
      {children}
    </section>
  );
}
