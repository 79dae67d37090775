import { ScreenTitle } from '../../components/screen-title.js';

/*
 * The customer screens (spec 001). Each shows its title until its own issue fills it in.
 */

export function OverviewPage() {
  return <ScreenTitle>Overview</ScreenTitle>;
}

export function WalletsPage() {
  return <ScreenTitle>Wallets</ScreenTitle>;
}

export function TransactionsPage() {
  return <ScreenTitle>Transactions</ScreenTitle>;
}

export function PaymentsPage() {
  return <ScreenTitle>Payments</ScreenTitle>;
}

export function SettingsPage() {
  return <ScreenTitle>Account Settings</ScreenTitle>;
}

export function SupportPage() {
  return <ScreenTitle>Support Tickets</ScreenTitle>;
}

export function SwapPage() {
  return <ScreenTitle>Swap Tokens</ScreenTitle>;
}

export function StakePlansPage() {
  return <ScreenTitle>Stake Plans</ScreenTitle>;
}

export function ManageStakesPage() {
  return <ScreenTitle>Manage Stakes</ScreenTitle>;
}
