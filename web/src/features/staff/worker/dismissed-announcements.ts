/** Announcements a worker closed, remembered in this browser (spec 002 section 4). */
const KEY = 'wallet-ledger.dismissed-announcements';
/** Enough to cover the 5 shown and many closed before them, without growing forever. */
const MAX_REMEMBERED = 200;

export function readDismissed(): string[] {
  try {
    const value = JSON.parse(window.localStorage.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function rememberDismissed(id: string): string[] {
  const next = [id, ...readDismissed().filter((d) => d !== id)].slice(0, MAX_REMEMBERED);
  try {
    window.localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // Storage full or blocked: the banner still hides it for this visit.
  }
  return next;
}
