import { describe, expect, it } from 'vitest';
import { STAFF_ACTION_NAMES } from '../ledger/contract/staff-activity.js';
import { STAFF_ACTION_RULES } from './staff-actions.js';

describe('the staff actions', () => {
  it('offer the filter exactly the actions the list can show, sorted', () => {
    const shown = [...new Set(Object.values(STAFF_ACTION_RULES).map((r) => r.action))].sort();
    expect([...STAFF_ACTION_NAMES]).toEqual(shown);
  });
});
