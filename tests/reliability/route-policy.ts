/**
 * Who may call what: one entry per route the app serves, with its policy class and a request
 * that passes the route's input schema, so the answer shows the access rule and not a 400.
 * The authorisation matrix (authorisation-matrix.int.spec.ts) fails for any route missing here.
 */
import type { Ids, Role } from './world.js';
import { ACCESS_ROUTES } from './route-policy-access.js';
import { CUSTOMER_ROUTES } from './route-policy-customer.js';
import { STAFF_ROUTES } from './route-policy-staff.js';

export type Policy =
  /** anyone, signed in or not */
  | 'public'
  /** any signed-in user, about their own account only (no id, or ids of their own things) */
  | 'signed-in'
  /** a customer's own things: a foreign id in any field is refused; staff have no customer things */
  | 'customer-self'
  /** the customer themself, or staff who manage them (get-user-profile-details) */
  | 'self-or-staff-owner'
  /** staff who manage the customer named: worker (claimed), manager (their workers'), admin */
  | 'staff-owner'
  /** any staff role, no customer named */
  | 'staff'
  /** a manager about a worker who reports to them, or an admin */
  | 'manager-of-worker'
  /** managers and admins, nobody else */
  | 'manager-only'
  /** managers about customers of their workers, admins about every customer; no worker */
  | 'manager-owner'
  /** workers only (claiming customers, their own list) */
  | 'worker-only'
  | 'admin-only'
  /** development tools (outbox); never registered in production */
  | 'dev-only';

/**
 * 'ok': 2xx or 3xx. 'allowed': past the access rule (not 401/403; a domain 4xx is fine).
 * '401', '403': exactly that. 'denied': 400, 403 or 404 and nothing written. '-': no such cell.
 */
export type Outcome = 'ok' | 'allowed' | '401' | '403' | 'denied' | '-';
export type Target = 'own' | 'foreign';
export type Cell = `${Role}/${Target}`;

/** The expected answer of every cell, per policy class: [own target, foreign target]. */
export const EXPECTED: Record<Policy, Record<Role, [Outcome, Outcome]>> = {
  public: {
    anonymous: ['allowed', '-'],
    USER: ['allowed', '-'],
    WORKER: ['allowed', '-'],
    MANAGER: ['allowed', '-'],
    ADMIN: ['allowed', '-'],
  },
  'dev-only': {
    anonymous: ['allowed', '-'],
    USER: ['allowed', '-'],
    WORKER: ['allowed', '-'],
    MANAGER: ['allowed', '-'],
    ADMIN: ['allowed', '-'],
  },
  'signed-in': {
    anonymous: ['401', '-'],
    USER: ['allowed', 'denied'],
    WORKER: ['allowed', 'denied'],
    MANAGER: ['allowed', 'denied'],
    ADMIN: ['allowed', 'denied'],
  },
  'customer-self': {
    anonymous: ['401', '-'],
    USER: ['allowed', 'denied'],
    WORKER: ['denied', 'denied'],
    MANAGER: ['denied', 'denied'],
    ADMIN: ['denied', 'denied'],
  },
  'self-or-staff-owner': {
    anonymous: ['401', '-'],
    USER: ['allowed', 'denied'],
    WORKER: ['allowed', 'denied'],
    MANAGER: ['allowed', 'denied'],
    ADMIN: ['allowed', 'allowed'],
  },
  'staff-owner': {
    anonymous: ['401', '-'],
    USER: ['403', '403'],
    WORKER: ['allowed', '403'],
    MANAGER: ['allowed', '403'],
    ADMIN: ['allowed', 'allowed'],
  },
  staff: { anonymous: ['401', '-'], USER: ['403', '-'], WORKER: ['allowed', '-'], MANAGER: ['allowed', '-'], ADMIN: ['allowed', '-'] },
  'manager-of-worker': {
    anonymous: ['401', '-'],
    USER: ['403', '403'],
    WORKER: ['403', '403'],
    MANAGER: ['allowed', '403'],
    ADMIN: ['allowed', 'allowed'],
  },
  'manager-owner': {
    anonymous: ['401', '-'],
    USER: ['403', '403'],
    WORKER: ['403', '403'],
    MANAGER: ['allowed', '403'],
    ADMIN: ['allowed', 'allowed'],
  },
  'manager-only': { anonymous: ['401', '-'], USER: ['403', '-'], WORKER: ['403', '-'], MANAGER: ['allowed', '-'], ADMIN: ['allowed', '-'] },
  'worker-only': { anonymous: ['401', '-'], USER: ['403', '-'], WORKER: ['allowed', '-'], MANAGER: ['403', '-'], ADMIN: ['403', '-'] },
  'admin-only': { anonymous: ['401', '-'], USER: ['403', '-'], WORKER: ['403', '-'], MANAGER: ['403', '-'], ADMIN: ['allowed', '-'] },
};

export interface RequestSpec {
  url?: string;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RoutePolicy {
  policy: Policy;
  /** A request that passes the schema; `ids` are the own or foreign ids of the cell. */
  request?: (ids: Ids, ctx: { password: string }) => RequestSpec;
  /** Each cell on a newly signed-in session (the call ends or changes the session). */
  fresh?: boolean;
  /** Cells whose answer differs from the class default, with the reason. */
  expect?: Partial<Record<Cell, Outcome>>;
  /** The route is checked elsewhere (a WebSocket); the file that does it. */
  coveredBy?: string;
  why?: string;
}

/** Every route, by area: route-policy-access.ts, route-policy-customer.ts, route-policy-staff.ts. */
export const ROUTE_POLICY: Record<string, RoutePolicy> = { ...ACCESS_ROUTES, ...CUSTOMER_ROUTES, ...STAFF_ROUTES };
