import { describe, expect, it } from 'vitest';
import { announcementsDecider, AnnouncementError, type AnnouncementEvent } from './announcements.js';

const given = (events: AnnouncementEvent[]) => events.reduce(announcementsDecider.evolve, announcementsDecider.initialState());
const id = '6f1c2f0e-8d4e-4f1a-9c55-0c1d2e3f4a5b';

describe('announcements decider', () => {
  it('posts a trimmed message', () => {
    expect(
      announcementsDecider.decide({ type: 'PostAnnouncement', announcementId: id, message: '  Team call at 3pm  ' }, given([])),
    ).toEqual([{ type: 'announcement.posted', data: { announcementId: id, message: 'Team call at 3pm' } }]);
  });

  it('refuses an empty or over-long message', () => {
    expect(() => announcementsDecider.decide({ type: 'PostAnnouncement', announcementId: id, message: '   ' }, given([]))).toThrow(
      AnnouncementError,
    );
    expect(() =>
      announcementsDecider.decide({ type: 'PostAnnouncement', announcementId: id, message: 'x'.repeat(2001) }, given([])),
    ).toThrow(/at most 2000/);
  });

  it('a retried post with the same id records nothing more', () => {
    const state = given([{ type: 'announcement.posted', data: { announcementId: id, message: 'Hi' } }]);
    expect(announcementsDecider.decide({ type: 'PostAnnouncement', announcementId: id, message: 'Hi' }, state)).toEqual([]);
  });
});
