import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter, Outlet, Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { Approval } from '@ledger/contract/approvals.js';
import type { StaffAction } from '@ledger/contract/staff-activity.js';
import type { Transaction } from '@/features/customer/shared/api/transactions.js';
import { RecentTransactionsCard } from '@/features/customer/overview/components/recent-transactions-card.js';
import { customerKeys } from '@/features/customer/shared/api/keys.js';
import { TransactionsPage } from '@/features/customer/transactions/transactions-page.js';
import { StaffActivityTab } from '@/features/staff/admin/staff-activity-tab.js';
import { approvalKeys, approvalLine } from '@/features/staff/approvals/api.js';
import { ApprovalsTab, CustomerApprovals } from '@/features/staff/approvals/approvals-tab.js';
import { profileKeys } from '@/features/staff/profile/api/queries.js';
import type { ProfileContext } from '@/features/staff/profile/profile-context.js';
import { TransactionsTab } from '@/features/staff/profile/transactions-tab.js';
import { WalletsTab } from '@/features/staff/profile/wallets-tab.js';
import type { ProfileDetails } from '@ledger/contract/profile-details.js';
import { mergeNotificationFeed } from '../ledger/notifications/feed.js';
import { settlementMessage } from '../ledger/notifications/notifications.js';
import { transactionMail, securityMail } from '../server/mail/templates.js';
import { summaryOf } from '../server/staff/event-trail.js';

/*
 * One voice (issue 50): one amount, 5000 USDT, and one moment go through every screen component
 * and text that shows them, and each place reads them in the format module's form for it
 * (ledger/display-amount.ts): a transaction's amount '5,000.00' (2 to 8 decimals, grouped; signed
 * on the staff screens), the overview's '+5,000.0000' (spec 001), USD '$5,000.00'; the short form
 * '06 Dec 2026 | 04:33' and the long form '06 Dec 2026, 04:33:41' in the viewer's time zone, and
 * in mails the long form in UTC, named.
 */

const AMOUNT = '5000';
// The viewer's 06 Dec 2026, 04:33:41 in whatever zone the test runs: the screens show local time.
const LOCAL = new Date(2026, 11, 6, 4, 33, 41);
// The same wall time in UTC: what a mail shows.
const UTC = new Date(Date.UTC(2026, 11, 6, 4, 33, 41));

const SHORT = '06 Dec 2026 | 04:33';
const LONG = '06 Dec 2026, 04:33:41';
const STAFF_AMOUNT = '+5,000.00 USDT';
const TEXT_AMOUNT = '5,000.00 USDT';
const USD = '$5,000.00';

const USER = '0190f0a0-0000-7000-8000-000000000001';

const tx: Transaction = {
  id: '0190f0a0-0000-7000-8000-0000000000aa',
  user_id: USER,
  asset_id: 'USDT',
  amount: AMOUNT,
  fee: '0',
  type: 'deposit',
  status: 'Complete',
  sent_at: LOCAL.toISOString(),
  created_at: LOCAL.toISOString(),
  sender_address: null,
  recipient_address: null,
  txid: null,
  note: null,
  is_hidden: false,
  request_id: null,
};

const approval: Approval = {
  requestId: '0190f0a0-0000-7000-8000-0000000000bb',
  userId: USER,
  customerEmail: 'c@example.com',
  customerName: 'Cus Tomer',
  action: 'manual-transaction',
  transactionId: tx.id,
  assetId: 'USDT',
  amount: AMOUNT,
  priceUsd: '1',
  valueUsd: AMOUNT,
  makerId: '0190f0a0-0000-7000-8000-0000000000cc',
  makerEmail: 'w@example.com',
  makerName: 'Wes Worker',
  status: 'pending',
  checkerId: null,
  checkerEmail: null,
  checkerName: null,
  reason: null,
  requestedAt: LOCAL.toISOString(),
  expiresAt: LOCAL.toISOString(),
  decidedAt: null,
};

const staffAction: StaffAction = {
  at: LOCAL.toISOString(),
  action: 'transaction-add',
  action_name: 'Manual transaction',
  maker_id: approval.makerId,
  maker_email: 'w@example.com',
  maker_name: 'Wes Worker',
  maker_role: 'WORKER',
  checker_id: null,
  checker_email: null,
  checker_name: null,
  checker_role: null,
  customer_id: USER,
  customer_email: 'c@example.com',
  detail: summaryOf('wallet.transaction-recorded', { amount: AMOUNT, assetId: 'USDT', type: 'deposit', status: 'Complete' }),
  event_type: 'wallet.transaction-recorded',
  event_id: '0190f0a0-0000-7000-8000-0000000000dd',
  position: '1',
};

/** Renders a screen with its reads already answered (no request is made) and returns its text. */
function render(element: ReactElement, seed: (client: QueryClient) => void = () => {}, outlet?: ProfileContext): string {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  seed(client);
  const routed = outlet
    ? createElement(
        Routes,
        null,
        createElement(Route, { element: createElement(Outlet, { context: outlet }) }, createElement(Route, { path: '*', element })),
      )
    : element;
  const html = renderToStaticMarkup(
    createElement(QueryClientProvider, { client }, createElement(MemoryRouter, { initialEntries: ['/'] }, routed)),
  );
  // The text a person reads: tags gone, entities read, spaces as one.
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, ' ');
}

describe('one amount and one moment, read the same way on every screen and in every mail', () => {
  it('customer overview: the spec 001 forms of its recent transactions', () => {
    const text = render(createElement(RecentTransactionsCard, { transactions: [tx], loading: false, error: null }));
    expect(text).toContain('+5,000.0000 USDT');
    expect(text).toContain('06 Dec | 04:33');
  });

  it("customer Transactions: the list's short date and the amount with its sign", () => {
    const text = render(createElement(TransactionsPage), (c) =>
      c.setQueryData(customerKeys.transactions(1, 10), { transactions: [tx], count: 1 }),
    );
    expect(text).toContain(SHORT);
    expect(text).toContain('+5,000.00000000 USDT');
    expect(text).not.toContain('+5000');
  });

  it("staff profile, Transactions: the history's amount and short date", () => {
    const text = render(
      createElement(TransactionsTab),
      (c) => c.setQueryData(profileKeys.transactions(USER), { pages: [{ transactions: [tx], next: null }], pageParams: [null] }),
      { userId: USER, details: null, reload: async () => {} },
    );
    expect(text).toContain(STAFF_AMOUNT);
    expect(text).toContain(SHORT);
  });

  it("staff profile, Wallets: the balance's 8 decimals and the USD price and value", () => {
    // Only what the tab reads of the customer's details.
    const details = { balances: { USDT: AMOUNT }, pendingDeposits: {}, addresses: {} } as unknown as ProfileDetails;
    const text = render(
      createElement(WalletsTab),
      (c) => c.setQueryData(profileKeys.prices, { USDT: { price: 1, changePercent24Hr: 0 } }),
      { userId: USER, details, reload: async () => {} },
    );
    expect(text).toContain('5,000.00000000');
    expect(text).toContain(USD);
    expect(text).not.toContain('5000');
  });

  it("staff profile, a customer's second approvals (Wallets and Transactions tabs)", () => {
    const text = render(createElement(CustomerApprovals, { userId: USER }), (c) =>
      c.setQueryData(approvalKeys.customer(USER), { approvals: [approval] }),
    );
    expect(text).toContain(`${STAFF_AMOUNT} (${USD})`);
    expect(approvalLine(approval)).toBe(`Awaiting second approval: ${STAFF_AMOUNT} (${USD}), by Wes Worker`);
  });

  it('staff Approvals, My requests: amount, USD value and short date', () => {
    const text = render(createElement(ApprovalsTab), (c) => c.setQueryData(approvalKeys.mine, { approvals: [approval] }));
    expect(text).toContain(STAFF_AMOUNT);
    expect(text).toContain(USD);
    expect(text).toContain(SHORT);
    expect(text).not.toContain('+5000');
  });

  it("staff activity: the long date and the event trail's amount", () => {
    const filters = { staff: '', customer: '', action: '', from: '', to: '' };
    const text = render(createElement(StaffActivityTab), (c) =>
      c.setQueryData(['admin', 'staff-actions', filters, 25, null], { actions: [staffAction], nextCursor: null, actionNames: [] }),
    );
    expect(text).toContain(LONG);
    expect(text).toContain(`Transaction added by staff: ${STAFF_AMOUNT}, deposit, Complete`);
  });

  it('the bell: stored settlement texts and received items', () => {
    expect(settlementMessage('deposit', 'Complete', AMOUNT, 'USDT')).toBe(`Your deposit of ${TEXT_AMOUNT} has been completed.`);
    const feed = mergeNotificationFeed({
      stored: [],
      namedTransactionIds: new Set(),
      now: new Date(LOCAL.getTime() + 60_000),
      received: [tx],
    });
    expect(feed.notifications.map((n) => n.message)).toEqual([`You received ${TEXT_AMOUNT}`]);
  });

  it('mails: the same amount, and the long form in UTC with the zone named', () => {
    const mail = transactionMail(
      'c@example.com',
      'Cus',
      { transactionId: tx.id, outcome: 'received', kind: 'deposit', assetId: 'USDT', amount: AMOUNT, hidden: false },
      UTC,
    );
    expect(mail.subject).toBe(`You received ${TEXT_AMOUNT}`);
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain('Amount: 5,000.00');
      expect(body).toContain(`Time: ${LONG} UTC`);
    }
    const security = securityMail('c@example.com', 'Cus', { kind: 'password-changed', at: UTC });
    expect(security.text).toContain(`Time: ${LONG} UTC`);
  });
});
