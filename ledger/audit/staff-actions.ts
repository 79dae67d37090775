import type { StaffActionName } from '../contract/staff-activity.js';
import { isStaffActor } from '../notifications/staff-notices.js';

/*
 * Which events are staff actions, and who did each: the maker (who did it, or asked for it)
 * and the checker (the second person who approved it). One rule for every record of staff
 * actions: the Staff activity read model, its CSV and CLI, the event trail and the trial
 * balance's staff adjustments.
 */

type Data = Record<string, unknown>;

/** A person in a record: a staff account's id and role; no id for the operator's command line. */
export interface Party {
  id: string | null;
  role: string | null;
}

/** Who did a staff action: the maker, the checker when a second person approved it, and that approval. */
export interface Attribution {
  maker: Party;
  checker: Party | null;
  requestId: string | null;
}

/** What is known of a request under the two-person rule: its maker, and its checker once approved. */
export interface RequestParties {
  maker: Party;
  checker: Party | null;
}

/** An event type's action name, and when only some of its events are that action. */
interface ActionRule {
  action: StaffActionName;
  when?: (data: Data) => boolean;
  /** Also an action when the operator's command line did it (actor role OPERATOR). */
  byOperator?: boolean;
}

/**
 * Every staff action: event type -> action name. An event of one of these types is a staff
 * action when a staff member was its actor; a new kind is one more line here and its name in
 * the contract's STAFF_ACTION_NAMES and STAFF_ACTION_LABELS.
 */
export const STAFF_ACTION_RULES: Record<string, ActionRule> = {
  'user.registered': {
    action: 'staff-create',
    when: (d) => (d.source === 'staff' || d.source === 'operator') && d.role !== 'USER',
    byOperator: true,
  },
  'user.claimed': { action: 'claim' },
  'user.dashboard-note-set': { action: 'note' },
  'user.permissions-updated': { action: 'permissions' },
  'user.wallet-address-set': { action: 'address' },
  'user.banned': { action: 'ban' },
  'user.unbanned': { action: 'unban' },
  'user.password-changed': { action: 'password-reset', when: (d) => d.method === 'staff-reset' },
  'user.kyc-approved': { action: 'kyc-decision' },
  'user.kyc-rejected': { action: 'kyc-decision' },
  'user.kyc-document-viewed': { action: 'kyc-document-view' },
  'user.signed-in': { action: 'sign-in' },
  'wallet.transaction-recorded': { action: 'transaction-add' },
  'wallet.transaction-settled': { action: 'transaction-settle' },
  'wallet.transaction-failed': { action: 'transaction-fail' },
  'wallet.transaction-edited': { action: 'transaction-edit' },
  'wallet.approval-requested': { action: 'approval-request' },
  'wallet.approval-approved': { action: 'approval-decision' },
  'wallet.approval-rejected': { action: 'approval-decision' },
  'user.mfa-removed-by-staff': { action: 'mfa-removal' },
};

/** The actor role of the operator's command line (`ledger create-staff`). */
export const OPERATOR_ROLE = 'OPERATOR';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ActorMetadata {
  actorId?: unknown;
  actorRole?: unknown;
}

/** The actor of an event as a party of a staff action, or null when the event is no staff member's. */
function staffActor(metadata: ActorMetadata | undefined, rule: ActionRule): Party | null {
  const { actorId, actorRole } = metadata ?? {};
  // A staff member is an account: an actor id that is no account's (a tool's, a test's) is none.
  if (isStaffActor(actorRole) && typeof actorId === 'string' && UUID.test(actorId))
    return { id: actorId.toLowerCase(), role: actorRole as string };
  if (rule.byOperator && actorRole === OPERATOR_ROLE) return { id: null, role: OPERATOR_ROLE };
  return null;
}

/** The action an event is, with its actor, or null when it is no staff action. */
export function staffActionOf(
  type: string,
  data: unknown,
  metadata: ActorMetadata | undefined,
): { action: StaffActionName; actor: Party } | null {
  const rule = STAFF_ACTION_RULES[type];
  if (!rule) return null;
  const actor = staffActor(metadata, rule);
  if (!actor) return null;
  if (rule.when && !rule.when((data ?? {}) as Data)) return null;
  return { action: rule.action, actor };
}

const idOf = (v: unknown): string | null => (typeof v === 'string' && UUID.test(v) ? v.toLowerCase() : null);

/** A request's events all carry the request id; an effect of an approval names it as approvalRequestId. */
export function requestIdOf(type: string, data: unknown): string | null {
  const d = (data ?? {}) as Data;
  return type.startsWith('wallet.approval-') ? idOf(d.requestId) : idOf(d.approvalRequestId);
}

/**
 * Who did the action an event records, given what is known of the requests before it
 * (`requests`, which this updates as the two-person rule's events go by, so that it can be
 * carried along the log in order). An approval's decision names its maker and its checker; the
 * transaction an approval created or settled names that approval's maker and checker, not the
 * staff member who happened to write the event.
 */
export function attribute(type: string, data: unknown, actor: Party, requests: Map<string, RequestParties>): Attribution {
  const d = (data ?? {}) as Data;
  const requestId = requestIdOf(type, data);
  const named = (id: unknown): Party | null => {
    const given = idOf(id);
    if (!given) return null;
    return { id: given, role: given === actor.id ? actor.role : null };
  };
  switch (type) {
    case 'wallet.approval-requested': {
      const maker = named(d.makerId) ?? actor;
      const parties = { maker: { id: maker.id, role: typeof d.makerRole === 'string' ? d.makerRole : maker.role }, checker: null };
      if (requestId) requests.set(requestId, parties);
      return { ...parties, requestId };
    }
    case 'wallet.approval-approved':
    case 'wallet.approval-rejected':
    case 'wallet.approval-expired': {
      const known = requestId ? requests.get(requestId) : undefined;
      const maker = known?.maker ?? named(d.makerId) ?? actor;
      const checkerId = idOf(d.checkerId);
      const checker = checkerId ? { id: checkerId, role: typeof d.checkerRole === 'string' ? d.checkerRole : actor.role } : null;
      if (requestId) requests.set(requestId, { maker, checker: type === 'wallet.approval-approved' ? checker : null });
      return { maker, checker, requestId };
    }
    default: {
      const known = requestId ? requests.get(requestId) : undefined;
      if (known?.checker) return { maker: known.maker, checker: known.checker, requestId };
      // A manual transaction names its maker; an approval this reader did not see still names a second person.
      const maker = named(d.makerId) ?? known?.maker ?? actor;
      const checker = requestId && maker.id !== actor.id ? actor : null;
      return { maker, checker, requestId };
    }
  }
}
