/** A transaction status in its colour (spec 001 section 4): Pending yellow, Complete green, Failed red. */
export function StatusBadge({ status }: { status: string }) {
  const tone = status === 'Complete' ? 'complete' : status === 'Failed' ? 'failed' : 'pending';
  return <span className={`status-badge status-badge--${tone}`}>{status}</span>;
}
