import type { AwaitingAnswer } from '@/features/staff/approvals/api.js';
import type { z } from 'zod';
import type { BalanceAt as BalanceAtSchema } from '@ledger/contract/books.js';
import type { BuyingLinks, StaffPaymentMethod } from '@ledger/contract/staff-buying-links.js';
import type { StaffTransactionPage, TrailPage as TrailPageSchema } from '@ledger/contract/staff-users.js';
import { anonymous, deleteJson, getJson, postJson } from '@/lib/api-client.js';

/** The staff's calls behind the User Profile tabs (spec 002 section 7; docs/api-staff.md). */

/** The ten assets with their names, in the spec's order (the ledger's list). */
export { ASSETS as ASSET_LIST } from '@ledger/contract/assets.js';

export type { ProfileDetails } from '@ledger/contract/profile-details.js';

export type StaffTransaction = z.infer<typeof StaffTransactionPage>['transactions'][number];

export type PaymentMethodRaw = z.infer<typeof StaffPaymentMethod>;
export type DefaultService = z.infer<typeof BuyingLinks>['defaults'][number];
export type BuyingLink = z.infer<typeof BuyingLinks>['links'][number];

export type TrailKind = 'money' | 'kyc' | 'access' | 'permissions' | 'support';
export type TrailPage = z.infer<typeof TrailPageSchema>;
export type TrailEvent = TrailPage['events'][number];

export type BalanceAt = z.infer<typeof BalanceAtSchema>;

export type PermissionFlags = { can_send: boolean; can_swap: boolean; can_buy: boolean; can_sell: boolean; can_stake: boolean };

const fn = (name: string) => `functions/v1/${name}`;

export const profileApi = {
  /** The profile shell's access questions (spec 002 section 7): a worker's, and a manager's or an admin's. */
  checkOwnership: (profileUserId: string) => postJson<{ isOwner: boolean }>(fn('check-user-ownership'), { profileUserId }),
  checkManagerAccess: (targetUserId: string) => postJson<{ isAuthorized: boolean }>(fn('check-manager-user-access'), { targetUserId }),
  ban: (targetUserId: string) => postJson(fn('ban-user'), { targetUserId }),
  unban: (targetUserId: string) => postJson(fn('unban-user'), { targetUserId }),
  approveKyc: (targetUserId: string) => postJson(fn('approve-kyc'), { targetUserId }),
  setNote: (userId: string, noteContent: string | null) => postJson(fn('set-dashboard-note'), { userId, noteContent }),
  resetPassword: (targetUserId: string, newPassword: string) => postJson(fn('reset-user-password'), { targetUserId, newPassword }),
  removeMfa: (targetUserId: string, reason: string) => postJson<{ success: boolean }>(fn('remove-user-mfa'), { targetUserId, reason }),
  updatePermissions: (
    targetUserId: string,
    permissions: PermissionFlags,
    sendDisabledNote: string | null,
    swapDisabledNote: string | null,
  ) => postJson(fn('update-all-user-permissions'), { targetUserId, permissions, sendDisabledNote, swapDisabledNote }),
  prices: (signal?: AbortSignal) => getJson<Record<string, { price: number }>>(fn('crypto-prices'), anonymous({ signal })),
  setAddress: (targetUserId: string, assetId: string, newAddress: string) =>
    postJson<{ message: string }>(fn('set-user-wallet-address'), { targetUserId, assetId, newAddress }),
  addTransaction: (body: {
    targetUserId: string;
    assetId: string;
    sentAt: string;
    amount: number | string;
    status: string;
    txid: string | null;
    senderAddress: string;
    note: string | null;
    isHidden: boolean;
  }) => postJson<{ message: string } & AwaitingAnswer>(fn('add-transaction'), body),
  updateTransaction: (body: { targetUserId: string; transactionId: string; status?: string; type?: string; note?: string | null }) =>
    postJson<{ success: boolean } & AwaitingAnswer>(fn('update-transaction'), body),
  paymentMethods: (userId: string) => getJson<{ paymentMethods: PaymentMethodRaw[] }>(`api/v1/users/${userId}/payment-methods`),
  paymentMethod: (userId: string, id: string) =>
    getJson<{ paymentMethod: PaymentMethodRaw }>(`api/v1/users/${userId}/payment-methods/${id}`),
  buyingLinks: (userId: string) =>
    getJson<{ defaults: DefaultService[]; links: BuyingLink[] }>('api/v1/buying-links', { searchParams: { userId } }),
  addBuyingLink: (body: {
    userId: string;
    url: string;
    name: string;
    logo: { fileName: string; contentType: string; data: string } | null;
  }) => postJson<{ link: BuyingLink }>('api/v1/buying-links', body),
  deleteBuyingLink: (userId: string, id: string) => deleteJson(`api/v1/buying-links/${id}`, { searchParams: { userId } }),
  /** ADMIN only (finance API): the wallet just after one of its events. */
  balanceAt: (userId: string, eventId: string, asset?: string) =>
    getJson<BalanceAt>('api/v1/admin/balance-at', { searchParams: { userId, eventId, ...(asset ? { asset } : {}) } }),
};

/** The server's words for a failure, or the screen's default. */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}
