import { describe, expect, it } from 'vitest';
import { AREA_ROLES, areaRedirect, homeOf, redirectFor } from '../web/src/app/role-home.js';

describe('role-guarded client areas', () => {
  it('sends a customer from every staff area to the overview', () => {
    for (const area of Object.values(AREA_ROLES)) expect(redirectFor('USER', area)).toBe('/dashboard/overview');
  });

  it('sends staff from another role’s dashboard to their own, and lets them open their own and customer profiles', () => {
    expect(redirectFor('WORKER', AREA_ROLES.manager)).toBe('/dashboard/worker');
    expect(redirectFor('WORKER', AREA_ROLES.admin)).toBe('/dashboard/worker');
    expect(redirectFor('MANAGER', AREA_ROLES.admin)).toBe('/dashboard/manager');
    expect(redirectFor('MANAGER', AREA_ROLES.worker)).toBe('/dashboard/manager');
    expect(redirectFor('ADMIN', AREA_ROLES.worker)).toBe('/dashboard/admin');
    expect(redirectFor('WORKER', AREA_ROLES.worker)).toBeNull();
    expect(redirectFor('MANAGER', AREA_ROLES.manager)).toBeNull();
    expect(redirectFor('ADMIN', AREA_ROLES.admin)).toBeNull();
    for (const role of ['WORKER', 'MANAGER', 'ADMIN'] as const) expect(redirectFor(role, AREA_ROLES.profile)).toBeNull();
  });

  it('has no staff home for a customer or a missing role', () => {
    expect(homeOf('USER')).toBe('/dashboard/overview');
    expect(homeOf('')).toBe('/dashboard/overview');
  });

  it('tells from the path alone, before the shell loads, where a role opening a staff area goes', () => {
    expect(areaRedirect('/dashboard/user-profile/00000000-0000-4000-8000-000000000001', 'USER')).toBe('/dashboard/overview');
    expect(areaRedirect('/dashboard/user-profile/abc/wallets', 'USER')).toBe('/dashboard/overview');
    expect(areaRedirect('/dashboard/admin/approvals', 'USER')).toBe('/dashboard/overview');
    expect(areaRedirect('/dashboard/manager', 'WORKER')).toBe('/dashboard/worker');
    expect(areaRedirect('/dashboard/user-profile/abc', 'WORKER')).toBeNull();
    expect(areaRedirect('/dashboard/worker/my-users', 'WORKER')).toBeNull();
    // Outside the staff areas nothing is decided here.
    for (const path of ['/dashboard', '/dashboard/overview', '/dashboard/wallets', '/dashboard/constructor', '/login'])
      expect(areaRedirect(path, 'USER')).toBeNull();
    expect(areaRedirect('/dashboard/workers', 'USER')).toBeNull();
  });
});
