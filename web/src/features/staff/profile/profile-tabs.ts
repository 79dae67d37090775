/** The User Profile's tabs, loaded with the staff area (web/src/app/router.tsx). */
export { GeneralTab } from './general-tab.js';
export { WalletsTab } from './wallets-tab.js';
export { TransactionsTab } from './transactions-tab.js';
export { PaymentManagementTab } from './payment-management-tab.js';
export { EventTrailTab } from './event-trail-tab.js';
