import type { ColumnType } from 'kysely';

export interface StaffActionsTable {
  event_id: string;
  at: ColumnType<Date, Date | string, Date | string>;
  staff_id: string;
  staff_role: string;
  customer_id: string | null;
  action: string;
  detail: string;
  event_type: string;
  position: string;
}

/** The staff actions with maker and checker (migration 0030), folded by projections/staff-actions.ts. */
export interface StaffActivityTable {
  event_id: string;
  at: ColumnType<Date, Date | string, Date | string>;
  action: string;
  /** Null for the operator's command line (maker_role OPERATOR). */
  maker_id: string | null;
  maker_role: string | null;
  checker_id: string | null;
  checker_role: string | null;
  customer_id: string | null;
  request_id: string | null;
  detail: string;
  event_type: string;
  position: string;
}

export interface StaffActionTables {
  /** The previous release's table, no longer written: dropped once no instance of that release runs. */
  staff_actions: StaffActionsTable;
  staff_activity: StaffActivityTable;
}
