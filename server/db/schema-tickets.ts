import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** Support tickets' read tables (migrations/0009_support_tickets.ts). */
export interface TicketTables {
  support_tickets: {
    id: string;
    user_id: string;
    subject: string;
    message: string;
    urgency: 'low' | 'medium' | 'high';
    status: 'open' | 'in_progress' | 'resolved';
    created_at: Timestamp;
    assigned_worker_id: string | null;
    updated_at: Timestamp;
  };
  ticket_responses: {
    id: string;
    ticket_id: string;
    user_id: string;
    message: string;
    created_at: Timestamp;
    is_from_worker: boolean;
  };
  ticket_attachments: {
    id: string;
    ticket_id: string;
    response_id: string | null;
    file_name: string;
    file_type: string;
    file_size: number;
    uploaded_at: Timestamp;
    is_from_worker: boolean;
    /** The blob's id in the blob store. */
    storage_path: string;
    uploaded_by: string;
    /** Sent with the ticket's opening message. */
    opening: boolean;
  };
}
