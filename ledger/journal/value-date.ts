/**
 * The value date of a wallet event: the day its money counts in the books. A manual
 * transaction carries the date staff gave it (`sentAt`, which may lie in the past and which a
 * closed period refuses); every other event takes effect when it is recorded (a deposit's
 * value date is its settlement). The booking date is always the moment it was recorded.
 */
export function valueDate(type: string, data: unknown, recordedAt: Date): Date {
  if (type === 'wallet.transaction-recorded') {
    const ms = Date.parse((data as { sentAt?: string }).sentAt ?? '');
    if (!Number.isNaN(ms)) return new Date(ms);
  }
  return recordedAt;
}
