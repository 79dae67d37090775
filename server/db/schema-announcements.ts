import type { ColumnType } from 'kysely';

export interface AnnouncementsTable {
  id: string;
  manager_id: string;
  message: string;
  created_at: ColumnType<Date, Date | string, Date | string>;
}

export interface AnnouncementTables {
  announcements: AnnouncementsTable;
}
