import { isIPv4, isIPv6 } from 'node:net';

/**
 * The network an address belongs to, as shown in a sign-in notice and compared for "seen before":
 * the /24 of an IPv4 address, the /48 of an IPv6 one (no location database is shipped, so the
 * IP range is the place). Null when unknown.
 */
export function networkOf(ip: string | null): string | null {
  if (!ip) return null;
  const v4 = ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  if (isIPv4(v4)) return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  if (!isIPv6(ip)) return null;
  const [head = ''] = ip.split('::');
  const groups = head.split(':').filter(Boolean);
  while (groups.length < 3) groups.push('0');
  return `${groups.slice(0, 3).join(':')}::/48`;
}

/**
 * A sign-in is from a new device when no earlier sign-in of the account had the same browser
 * (user agent) on the same network. An account's first sign-in is not announced: it follows the
 * owner's own confirmation of the address.
 */
export function isNewDevice(
  seen: readonly { ip_address: string | null; user_agent: string | null }[],
  now: { ip: string | null; userAgent: string | null },
): boolean {
  if (seen.length === 0) return false;
  const network = networkOf(now.ip);
  return !seen.some((s) => s.user_agent === now.userAgent && networkOf(s.ip_address) === network);
}
