/**
 * What a customer is told when staff act on their account's security or access: a staff
 * password reset, a ban or unban, a change of their permissions or of a deposit address.
 * One text for the e-mail (server/mail) and the in-app notification (projections/notifications.ts).
 * Never a secret: a reset notice says that the password was reset, not what it is.
 */
export interface StaffNotice {
  subject: string;
  message: string;
}

const STAFF_ROLES = new Set(['WORKER', 'MANAGER', 'ADMIN']);

/** True when `actorRole` is a staff member's (the customer's own acts are no notice). */
export const isStaffActor = (actorRole: unknown) => typeof actorRole === 'string' && STAFF_ROLES.has(actorRole);

const PERMISSION_NAMES = [
  ['canSend', 'send'],
  ['canSwap', 'swap'],
  ['canBuy', 'buy'],
  ['canSell', 'sell'],
  ['canStake', 'stake'],
] as const;

/** The notice a staff member's event gives the customer, or null when it gives none. */
export function staffNoticeOf(type: string, data: Record<string, unknown>): StaffNotice | null {
  switch (type) {
    case 'user.password-changed':
      return data.method === 'staff-reset'
        ? {
            subject: 'Your password was reset',
            message:
              'A member of our staff reset your password. You will be asked to choose a new one when you next sign in. If you did not ask for this, contact support.',
          }
        : null;
    case 'user.banned':
      return {
        subject: 'Your account has been suspended',
        message: 'A member of our staff suspended your account. Contact support if you think this is a mistake.',
      };
    case 'user.unbanned':
      return {
        subject: 'Your account is active again',
        message: 'A member of our staff lifted the suspension of your account. You can sign in again.',
      };
    case 'user.permissions-updated': {
      const list = PERMISSION_NAMES.map(([k, n]) => `${n} ${data[k] ? 'on' : 'off'}`).join(', ');
      return {
        subject: 'Your account permissions have changed',
        message: `A member of our staff changed what your account may do: ${list}.`,
      };
    }
    case 'user.wallet-address-set':
      return {
        subject: `Your ${String(data.assetId)} deposit address has changed`,
        message: `A member of our staff set a new ${String(data.assetId)} deposit address for your account: ${String(data.address)}. Send new ${String(data.assetId)} deposits only to this address.`,
      };
    default:
      return null;
  }
}

/** The event types that can give a notice. */
export const STAFF_NOTICE_TYPES = new Set([
  'user.password-changed',
  'user.banned',
  'user.unbanned',
  'user.permissions-updated',
  'user.wallet-address-set',
]);
