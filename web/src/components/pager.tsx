type PagerProps = {
  /** 1-based. */
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
  /** When given, the label reads 'Page X of Y (Total: N)'. */
  total?: number;
  /** Show the pager even when everything fits on one page. */
  alwaysShow?: boolean;
  disabled?: boolean;
};

/** Previous / 'Page X of Y' / Next under a paged list. */
export function Pager({ page, pageCount, onPageChange, total, alwaysShow = false, disabled = false }: PagerProps) {
  const pages = Math.max(1, pageCount);
  if (pages <= 1 && !alwaysShow) return null;
  const current = Math.min(Math.max(1, page), pages);

  return (
    <nav className="pager" aria-label="Pagination">
      <button
        type="button"
        className="button button--secondary pager__button"
        disabled={disabled || current <= 1}
        onClick={() => onPageChange(current - 1)}
      >
        Previous
      </button>
      <span className="pager__label" aria-live="polite">
        Page {current} of {pages}
        {total !== undefined && ` (Total: ${total})`}
      </span>
      <button
        type="button"
        className="button button--secondary pager__button"
        disabled={disabled || current >= pages}
        onClick={() => onPageChange(current + 1)}
      >
        Next
      </button>
    </nav>
  );
}
