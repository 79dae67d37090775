import './worker/staff-dashboard.css';
import './approvals/approvals.css';

/*
 * The staff screens (spec 002). Each shows its title until its own issue fills it in;
 * the tabs of the worker, manager and user-profile screens are routes already.
 */

export { WorkerDashboard as WorkerDashboardPage, StakeManagementTab } from './worker/worker-dashboard.js';
export { SearchUserTab } from './worker/search-user-tab.js';
export { MyUsersTab } from './worker/my-users-tab.js';
export { ManagerDashboard as ManagerDashboardPage } from './manager/manager-dashboard.js';
export { MyWorkersTab } from './manager/my-workers-tab.js';
export { CreateWorkerTab } from './manager/create-worker-tab.js';
export { ActionsTab } from './manager/actions-tab.js';
export { AllUsersTab } from './manager/all-users-tab.js';

export { AdminDashboard as AdminDashboardPage } from './admin/admin-dashboard.js';
export { StaffActivityTab } from './admin/staff-activity-tab.js';
export { ApprovalsTab } from './approvals/approvals-tab.js';

export { UserProfilePage } from './profile/profile-page.js';
