import { comparePositions, formatPosition, type EventStore, type Position, type RecordedEvent } from '../event-store/port.js';
import { JournalBook } from './book.js';

export interface FoldLimit {
  /** Stop after this position (inclusive). */
  until?: Position | null;
  /** Stop before the first event recorded after this moment. */
  at?: Date;
  /** Only these streams are posted (a customer's wallet); others are read past. */
  streamId?: string;
}

function within(e: RecordedEvent, limit: FoldLimit): boolean {
  if (limit.until !== undefined && (limit.until === null || comparePositions(e.position, limit.until) > 0)) return false;
  if (limit.at && e.recordedAt.getTime() > limit.at.getTime()) return false;
  return true;
}

/**
 * Runs the log through the posting rules in log order, in pages, up to a position or a
 * moment: the journal as it stood then. `onEvent` sees each posted event with its postings.
 */
export async function foldJournal(
  store: EventStore,
  limit: FoldLimit = {},
  opts: {
    pageSize?: number;
    onProgress?: (events: number) => void;
    onEvent?: (e: RecordedEvent, postings: ReturnType<JournalBook['apply']>) => void;
  } = {},
): Promise<JournalBook> {
  const book = new JournalBook();
  const apply = (e: RecordedEvent) => {
    const postings = book.apply({
      eventId: e.eventId,
      streamId: e.streamId,
      type: e.type,
      data: e.data,
      position: formatPosition(e.position),
    });
    opts.onEvent?.(e, postings);
  };
  if (limit.streamId) {
    // A wallet's events are all in its stream, in order: no need to read the whole log.
    for (const e of await store.readStream(limit.streamId)) {
      if (!within(e, limit)) break;
      apply(e);
    }
    return book;
  }
  let after: Position | undefined;
  let read = 0;
  for (;;) {
    const page = await store.readAll({ after, maxCount: opts.pageSize ?? 5000 });
    if (page.length === 0) break;
    for (const e of page) {
      if (!within(e, limit)) return book;
      apply(e);
    }
    read += page.length;
    opts.onProgress?.(read);
    after = page[page.length - 1]!.position;
  }
  return book;
}
