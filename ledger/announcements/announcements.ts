import { z } from 'zod';
import type { Decider } from '../decider.js';

/**
 * A manager's announcements to all their workers: `announcements-{managerId}`. One stream per
 * manager, so the manager is the stream's owner and the actor of every event on it.
 */
export const ANNOUNCEMENTS_STREAM_PREFIX = 'announcements-';
export const announcementsStream = (managerId: string) => `${ANNOUNCEMENTS_STREAM_PREFIX}${managerId}`;

/** Longest announcement a manager may post; the banner shows it whole. */
export const MAX_ANNOUNCEMENT_LENGTH = 2000;

export const announcementEventSchemas = {
  'announcement.posted': {
    version: 1,
    schema: z.object({ announcementId: z.uuid(), message: z.string().min(1).max(MAX_ANNOUNCEMENT_LENGTH) }),
  },
} as const;

export type AnnouncementEvent = { type: 'announcement.posted'; data: { announcementId: string; message: string } };
export type AnnouncementCommand = { type: 'PostAnnouncement'; announcementId: string; message: string };

export interface AnnouncementsState {
  posted: Set<string>;
}

export class AnnouncementError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AnnouncementError';
  }
}

export function decideAnnouncement(command: AnnouncementCommand, state: AnnouncementsState): AnnouncementEvent[] {
  const message = command.message.trim();
  if (!message) throw new AnnouncementError('Please enter an announcement.');
  if (message.length > MAX_ANNOUNCEMENT_LENGTH)
    throw new AnnouncementError(`An announcement can be at most ${MAX_ANNOUNCEMENT_LENGTH} characters long.`);
  // The same id twice is a retry of the same post, not a second announcement.
  if (state.posted.has(command.announcementId)) return [];
  return [{ type: 'announcement.posted', data: { announcementId: command.announcementId, message } }];
}

export const announcementsDecider: Decider<AnnouncementCommand, AnnouncementEvent, AnnouncementsState> = {
  category: 'announcements',
  initialState: () => ({ posted: new Set() }),
  evolve: (state, event) => ({ posted: new Set(state.posted).add(event.data.announcementId) }),
  decide: decideAnnouncement,
  schemas: announcementEventSchemas,
  // A manager's stream grows with every announcement they post.
  snapshot: { version: 1, encode: (state) => [...state.posted], decode: (data) => ({ posted: new Set(data as string[]) }) },
};
