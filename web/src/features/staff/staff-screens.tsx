import { Outlet } from 'react-router-dom';
import { ScreenTitle } from '../../components/screen-title.js';

/*
 * The staff screens (spec 002). Each shows its title until its own issue fills it in;
 * the tabs of the worker, manager and user-profile screens are routes already.
 */

export function WorkerDashboardPage() {
  return (
    <>
      <ScreenTitle>Worker Dashboard</ScreenTitle>
      <Outlet />
    </>
  );
}

export function ManagerDashboardPage() {
  return (
    <>
      <ScreenTitle>Manager Dashboard</ScreenTitle>
      <Outlet />
    </>
  );
}

export function AdminDashboardPage() {
  return <ScreenTitle subtitle="Welcome to the admin dashboard.">Admin Dashboard</ScreenTitle>;
}

export function UserProfilePage() {
  return (
    <>
      <ScreenTitle>User Profile</ScreenTitle>
      <Outlet />
    </>
  );
}

/** A tab whose content is still to come. */
export function EmptyTab() {
  return null;
}
