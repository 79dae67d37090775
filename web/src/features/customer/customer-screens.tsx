import './customer.css';

/*
 * The customer screens (spec 001). Each lives in its own folder; those still to come show
 * their title until their own issue fills them in.
 */

export { OverviewPage } from './overview/overview-page.js';
export { WalletsPage } from './wallets/wallets-page.js';
export { TransactionsPage } from './transactions/transactions-page.js';
export { PaymentsPage } from './payments/payments-page.js';
export { SettingsPage } from './settings/settings-page.js';

export { SupportPage } from './support/support-page.js';

export { SwapPage } from './swap/swap-page.js';
export { StakePlansPage } from './stake/stake-plans-page.js';
export { ManageStakesPage } from './stake/manage-stakes-page.js';
