const TYPE_LABELS: Record<string, string> = {
  deposit: 'Deposit',
  withdrawal: 'Withdrawal',
  send: 'Send',
  adjustment: 'Adjustment',
  swap: 'Swap',
  stake: 'Stake',
  stake_payout: 'Stake Payout',
};

export function typeLabel(type: string | null | undefined): string {
  if (!type) return '—';
  return TYPE_LABELS[type] ?? type.charAt(0).toUpperCase() + type.slice(1);
}
