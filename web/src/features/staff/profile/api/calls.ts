import type { z } from 'zod';
import type { BalanceAt as BalanceAtSchema, BalanceAtQuery } from '@ledger/contract/books.js';
import type { AssetId } from '@ledger/contract/assets.js';
import type { PriceMap } from '@ledger/contract/prices.js';
import type { Done, TargetUserBody } from '@ledger/contract/common.js';
import type {
  AddBuyingLinkBody,
  BuyingLinkAdded,
  BuyingLinks,
  BuyingLinksQuery,
  RemoveBuyingLinkQuery,
  StaffPaymentMethod,
  StaffPaymentMethodAnswer,
  StaffPaymentMethods,
} from '@ledger/contract/staff-buying-links.js';
import type {
  AddressSet,
  AddTransactionBody,
  RemoveMfaBody,
  ResetUserPasswordBody,
  SetDashboardNoteBody,
  SetWalletAddressBody,
  StaffTransactionPage,
  TrailPage as TrailPageSchema,
  TransactionAdded,
  TransactionUpdated,
  UpdatePermissionsBody,
  UpdateTransactionBody,
} from '@ledger/contract/staff-users.js';
import type { ManagerAccess, Ownership, OwnershipBody } from '@ledger/contract/staff-workers.js';
import { anonymous, deleteJson, getJson, postJson } from '@/lib/api-client.js';

/** The staff's calls behind the User Profile tabs (spec 002 section 7; docs/api-staff.md). */

/** The ten assets with their names, in the spec's order (the ledger's list). */
export { ASSETS as ASSET_LIST } from '@ledger/contract/assets.js';

export type { ProfileDetails } from '@ledger/contract/profile-details.js';

export type StaffTransaction = z.infer<typeof StaffTransactionPage>['transactions'][number];

export type PaymentMethodRaw = z.infer<typeof StaffPaymentMethod>;
export type DefaultService = z.infer<typeof BuyingLinks>['defaults'][number];
export type BuyingLink = z.infer<typeof BuyingLinks>['links'][number];

export type { TrailKind } from '@ledger/contract/staff-users.js';
export type TrailPage = z.infer<typeof TrailPageSchema>;
export type TrailEvent = TrailPage['events'][number];

export type BalanceAt = z.infer<typeof BalanceAtSchema>;

export type PermissionFlags = z.input<typeof UpdatePermissionsBody>['permissions'];
/** The transaction types Edit Transaction may set (the contract's). */
export type EditableType = NonNullable<z.input<typeof UpdateTransactionBody>['type']>;

const fn = (name: string) => `functions/v1/${name}`;

/** The body of a call about one customer. */
const target = (targetUserId: string) => ({ targetUserId }) satisfies z.input<typeof TargetUserBody>;

export const profileApi = {
  /** The profile shell's access questions (spec 002 section 7): a worker's, and a manager's or an admin's. */
  checkOwnership: (profileUserId: string) =>
    postJson<z.infer<typeof Ownership>>(fn('check-user-ownership'), { profileUserId } satisfies z.input<typeof OwnershipBody>),
  checkManagerAccess: (targetUserId: string) =>
    postJson<z.infer<typeof ManagerAccess>>(fn('check-manager-user-access'), target(targetUserId)),
  ban: (targetUserId: string) => postJson(fn('ban-user'), target(targetUserId)),
  unban: (targetUserId: string) => postJson(fn('unban-user'), target(targetUserId)),
  approveKyc: (targetUserId: string) => postJson(fn('approve-kyc'), target(targetUserId)),
  setNote: (userId: string, noteContent: string | null) =>
    postJson(fn('set-dashboard-note'), { userId, noteContent } satisfies z.input<typeof SetDashboardNoteBody>),
  resetPassword: (targetUserId: string, newPassword: string) =>
    postJson(fn('reset-user-password'), { targetUserId, newPassword } satisfies z.input<typeof ResetUserPasswordBody>),
  removeMfa: (targetUserId: string, reason: string) =>
    postJson<z.infer<typeof Done>>(fn('remove-user-mfa'), { targetUserId, reason } satisfies z.input<typeof RemoveMfaBody>),
  updatePermissions: (
    targetUserId: string,
    permissions: PermissionFlags,
    sendDisabledNote: string | null,
    swapDisabledNote: string | null,
  ) =>
    postJson(fn('update-all-user-permissions'), {
      targetUserId,
      permissions,
      sendDisabledNote,
      swapDisabledNote,
    } satisfies z.input<typeof UpdatePermissionsBody>),
  prices: (signal?: AbortSignal) => getJson<PriceMap>(fn('crypto-prices'), anonymous({ signal })),
  setAddress: (targetUserId: string, assetId: string, newAddress: string) =>
    postJson<z.infer<typeof AddressSet>>(fn('set-user-wallet-address'), {
      targetUserId,
      assetId,
      newAddress,
    } satisfies z.input<typeof SetWalletAddressBody>),
  addTransaction: (body: z.input<typeof AddTransactionBody>) => postJson<z.infer<typeof TransactionAdded>>(fn('add-transaction'), body),
  updateTransaction: (body: z.input<typeof UpdateTransactionBody>) =>
    postJson<z.infer<typeof TransactionUpdated>>(fn('update-transaction'), body),
  paymentMethods: (userId: string) => getJson<z.infer<typeof StaffPaymentMethods>>(`api/v1/users/${userId}/payment-methods`),
  paymentMethod: (userId: string, id: string) =>
    getJson<z.infer<typeof StaffPaymentMethodAnswer>>(`api/v1/users/${userId}/payment-methods/${id}`),
  buyingLinks: (userId: string) =>
    getJson<z.infer<typeof BuyingLinks>>('api/v1/buying-links', {
      searchParams: { userId } satisfies z.input<typeof BuyingLinksQuery>,
    }),
  addBuyingLink: (body: z.input<typeof AddBuyingLinkBody>) => postJson<z.infer<typeof BuyingLinkAdded>>('api/v1/buying-links', body),
  deleteBuyingLink: (userId: string, id: string) =>
    deleteJson(`api/v1/buying-links/${id}`, { searchParams: { userId } satisfies z.input<typeof RemoveBuyingLinkQuery> }),
  /** ADMIN only (finance API): the wallet just after one of its events. */
  balanceAt: (userId: string, eventId: string, asset?: AssetId) =>
    getJson<BalanceAt>('api/v1/admin/balance-at', {
      searchParams: { userId, eventId, ...(asset ? { asset } : {}) } satisfies z.input<typeof BalanceAtQuery>,
    }),
};

/** The server's words for a failure, or the screen's default. */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}
