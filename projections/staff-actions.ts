import { sql } from 'kysely';
import { formatPosition, type RecordedEvent } from '../ledger/event-store/port.js';
import { isStaffActor } from '../ledger/notifications/staff-notices.js';
import type { StaffActionName } from '../ledger/contract/staff-activity.js';
import { summaryOf, withoutCardNumbers, withoutSecrets } from '../server/staff/event-trail.js';
import { isUuid } from '../server/ids.js';
import { table, timestampText, type Projection } from './projection.js';

type Data = Record<string, unknown>;

/** An event type's action name (one of the contract's), and when only some of its events are that action. */
interface ActionRule {
  action: StaffActionName;
  when?: (data: Data) => boolean;
}

/**
 * Every staff action the activity list shows: event type -> action name. An event of one of
 * these types is a row when a staff member was its actor; a new kind of action (an approval's
 * request and outcome, say) is one more line here and its name in the contract's STAFF_ACTION_NAMES.
 */
export const STAFF_ACTION_RULES: Record<string, ActionRule> = {
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
  'wallet.transaction-settled': { action: 'transaction-status' },
  'wallet.transaction-failed': { action: 'transaction-status' },
  'wallet.transaction-edited': { action: 'transaction-edit' },
  'wallet.approval-requested': { action: 'approval-request' },
  'wallet.approval-approved': { action: 'approval-decision' },
  'wallet.approval-rejected': { action: 'approval-decision' },
  'user.mfa-removed-by-staff': { action: 'mfa-removal' },
};

const DETAIL_MAX = 300;
const ROWS_PER_INSERT = 1000;
const COLUMNS = sql.raw('(event_id, at, staff_id, staff_role, customer_id, action, detail, event_type, position)');

/** The account an event is about: the id in its stream's name (`user-{id}`, `wallet-{id}`). */
function subjectOf(streamId: string): string | null {
  const m = /^(?:user|wallet)-([0-9a-f-]{36})$/i.exec(streamId);
  return m ? m[1]!.toLowerCase() : null;
}

/** The row an event gives, or null when it is not a staff action. */
export function staffActionOf(e: RecordedEvent) {
  const rule = STAFF_ACTION_RULES[e.type];
  // A staff member is an account: an actor id that is no account's (a tool's, a test's) is none.
  if (!rule || !isStaffActor(e.metadata?.actorRole) || !isUuid(e.metadata.actorId)) return null;
  const data = (e.data ?? {}) as Data;
  if (rule.when && !rule.when(data)) return null;
  const subject = subjectOf(e.streamId);
  const shown = withoutCardNumbers(withoutSecrets(data)) as Data;
  const summary = summaryOf(e.type, shown);
  return {
    eventId: e.eventId,
    at: timestampText(e.recordedAt),
    staffId: e.metadata.actorId,
    staffRole: e.metadata.actorRole,
    // A staff member's own sign-in is about no customer.
    customerId: subject === e.metadata.actorId ? null : subject,
    action: rule.action,
    detail: summary.length > DETAIL_MAX ? `${summary.slice(0, DETAIL_MAX - 1)}…` : summary,
    eventType: e.type,
    position: formatPosition(e.position),
  };
}

/** staff_actions: who of the staff did what to which customer, and when, from every stream. */
export const staffActionsProjection: Projection = {
  name: 'staff-actions',
  tables: ['staff_actions'],
  handles: (type) => type in STAFF_ACTION_RULES,

  async apply(target, events) {
    const rows = events.flatMap((e) => {
      const r = staffActionOf(e);
      return r
        ? [
            sql`(${r.eventId}::uuid, ${r.at}::timestamptz, ${r.staffId}::uuid, ${r.staffRole}, ${r.customerId}::uuid, ${r.action}, ${r.detail}, ${r.eventType}, ${r.position})`,
          ]
        : [];
    });
    // One statement per thousand rows (9 parameters each, under the protocol's 65,535).
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      await sql`insert into ${table(target, 'staff_actions')} ${COLUMNS} values ${sql.join(rows.slice(i, i + ROWS_PER_INSERT))}`.execute(
        target.trx,
      );
    }
  },
};
