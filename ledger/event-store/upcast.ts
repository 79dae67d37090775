import type { RecordedEvent } from './port.js';

/** Turns the data of one stored schema version into the next version's. */
type Step = (data: Record<string, unknown>) => Record<string, unknown>;

/** Sums two decimal strings exactly (the amounts have at most 18 decimals). */
function addDecimals(a: string, b: string): string {
  const scale = (s: string) => (s.split('.')[1] ?? '').length;
  const digits = Math.max(scale(a), scale(b));
  const toUnits = (s: string) => {
    const neg = s.startsWith('-');
    const [i, f = ''] = s.replace('-', '').split('.');
    const v = BigInt(i! + f.padEnd(digits, '0'));
    return neg ? -v : v;
  };
  const sum = toUnits(a) + toUnits(b);
  const neg = sum < 0n;
  const text = (neg ? -sum : sum).toString().padStart(digits + 1, '0');
  const int = text.slice(0, text.length - digits);
  const frac = digits ? text.slice(text.length - digits).replace(/0+$/, '') : '';
  const out = frac ? `${int}.${frac}` : int;
  return neg && out !== '0' ? `-${out}` : out;
}

/**
 * Upcasters by event type and the version they read. Reading applies them in turn until
 * none is registered for the event's version, so a stored event of any version reaches
 * the current one; the decider, projections and tools only ever see current versions.
 * Stored events are never rewritten.
 */
export const UPCASTERS: Record<string, Record<number, Step>> = {
  // Version 0 of deposit and withdrawal requests did not record what the customer asked
  // for. The amount then was what it is now (signed, fee included), so the ask follows:
  // a deposit credits the ask less the fee; a withdrawal debits the ask plus the fee.
  'wallet.deposit-requested': {
    0: (d) => ({ ...d, requestedAmount: addDecimals(String(d.amount), String(d.fee)) }),
  },
  'wallet.withdrawal-requested': {
    0: (d) => ({ ...d, requestedAmount: addDecimals(String(d.amount).replace(/^-/, ''), `-${String(d.fee)}`) }),
  },
  // Version 1 of the notification choices had no transaction e-mails: they were never sent, so off.
  'user.notification-preferences-set': {
    1: (d) => ({ ...d, transactionsEmail: false }),
  },
};

/** The event as its current schema version shows it (the same object when already current). */
export function upcast<E extends Pick<RecordedEvent, 'type' | 'version' | 'data'>>(event: E): E {
  const steps = UPCASTERS[event.type];
  if (!steps || !steps[event.version]) return event;
  let { version, data } = event;
  while (steps[version]) {
    data = steps[version]!(data as Record<string, unknown>);
    version++;
  }
  return { ...event, version, data };
}
