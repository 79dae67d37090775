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

export interface StaffActionTables {
  staff_actions: StaffActionsTable;
}
