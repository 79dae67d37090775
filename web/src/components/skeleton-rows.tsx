type SkeletonRowsProps = {
  rows?: number;
  columns?: number;
  /** Read to screen readers instead of the shimmering rows. */
  label?: string;
};

/** Placeholder rows while a list loads. */
export function SkeletonRows({ rows = 5, columns = 1, label = 'Loading...' }: SkeletonRowsProps) {
  return (
    <div className="skeleton" role="status">
      <span className="visually-hidden">{label}</span>
      {Array.from({ length: rows }, (_, row) => (
        <div key={row} className="skeleton__row" aria-hidden="true" style={{ gridTemplateColumns: `repeat(${columns}, 1fr)` }}>
          {Array.from({ length: columns }, (_, column) => (
            <span key={column} className="skeleton__cell" />
          ))}
        </div>
      ))}
    </div>
  );
}
