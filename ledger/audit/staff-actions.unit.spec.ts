import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { STAFF_ACTION_LABELS, STAFF_ACTION_NAMES } from '../contract/staff-activity.js';
import { attribute, STAFF_ACTION_RULES, staffActionOf, type RequestParties } from './staff-actions.js';

const worker = randomUUID();
const manager = randomUUID();
const customer = randomUUID();
const requestId = randomUUID();
const transactionId = randomUUID();

describe('the staff actions', () => {
  it('offer the filter exactly the actions the list can show, sorted, each with a readable name', () => {
    const shown = [...new Set(Object.values(STAFF_ACTION_RULES).map((r) => r.action))].sort();
    expect([...STAFF_ACTION_NAMES]).toEqual(shown);
    expect(Object.keys(STAFF_ACTION_LABELS).sort()).toEqual(shown);
    expect(STAFF_ACTION_LABELS['transaction-add']).toBe('Manual transaction');
  });

  it('count a staff account made by a manager or the operator, and no account a customer or the first start made', () => {
    const registered = (source: string, role: string) => ({ email: 'x@example.com', fullName: 'X', role, source });
    expect(staffActionOf('user.registered', registered('staff', 'WORKER'), { actorId: manager, actorRole: 'MANAGER' })).toEqual({
      action: 'staff-create',
      actor: { id: manager, role: 'MANAGER' },
    });
    expect(staffActionOf('user.registered', registered('operator', 'ADMIN'), { actorId: 'operator', actorRole: 'OPERATOR' })).toEqual({
      action: 'staff-create',
      actor: { id: null, role: 'OPERATOR' },
    });
    expect(staffActionOf('user.registered', registered('self', 'USER'), { actorId: customer, actorRole: 'USER' })).toBeNull();
    expect(staffActionOf('user.registered', registered('demo', 'WORKER'), { actorId: 'system', actorRole: 'SYSTEM' })).toBeNull();
    // The operator is a maker of accounts only.
    expect(staffActionOf('user.banned', { until: '2126-01-01' }, { actorId: 'operator', actorRole: 'OPERATOR' })).toBeNull();
    expect(staffActionOf('user.password-changed', { method: 'staff-reset' }, { actorId: manager, actorRole: 'MANAGER' })).toMatchObject({
      action: 'password-reset',
    });
    expect(staffActionOf('user.password-changed', { method: 'self' }, { actorId: manager, actorRole: 'MANAGER' })).toBeNull();
  });
});

describe('maker and checker', () => {
  const w = { id: worker, role: 'WORKER' };
  const m = { id: manager, role: 'MANAGER' };

  it('name the worker who asked and the manager who approved on the approval and on the credit it created', () => {
    const requests = new Map<string, RequestParties>();
    expect(attribute('wallet.approval-requested', { requestId, transactionId, makerId: worker, makerRole: 'WORKER' }, w, requests)).toEqual(
      {
        maker: w,
        checker: null,
        requestId,
      },
    );
    const decision = { requestId, makerId: worker, checkerId: manager, checkerRole: 'MANAGER', reason: 'ok' };
    expect(attribute('wallet.approval-approved', decision, m, requests)).toEqual({ maker: w, checker: m, requestId });
    // The manager's approval writes the credit: its maker is still the worker.
    const credit = { transactionId, amount: '500', makerId: worker, approvalRequestId: requestId };
    expect(attribute('wallet.transaction-recorded', credit, m, requests)).toEqual({ maker: w, checker: m, requestId });
    expect(attribute('wallet.transaction-settled', { transactionId, approvalRequestId: requestId }, m, requests)).toEqual({
      maker: w,
      checker: m,
      requestId,
    });
  });

  it('name no checker for a rejected request, nor for an action that needed none', () => {
    const requests = new Map<string, RequestParties>();
    attribute('wallet.approval-requested', { requestId, makerId: worker, makerRole: 'WORKER' }, w, requests);
    const refusal = attribute(
      'wallet.approval-rejected',
      { requestId, makerId: worker, checkerId: manager, checkerRole: 'MANAGER', reason: 'no' },
      m,
      requests,
    );
    // The decision names who decided; the request stays without an approver.
    expect(refusal).toEqual({ maker: w, checker: m, requestId });
    expect(requests.get(requestId)).toEqual({ maker: w, checker: null });
    expect(attribute('wallet.transaction-recorded', { transactionId, makerId: worker }, w, requests)).toEqual({
      maker: w,
      checker: null,
      requestId: null,
    });
    expect(attribute('user.banned', {}, m, requests)).toEqual({ maker: m, checker: null, requestId: null });
  });

  it('still name two people when the approval was not seen: the maker the event names, the staff member who wrote it as checker', () => {
    const credit = { transactionId, amount: '500', makerId: worker, approvalRequestId: requestId };
    expect(attribute('wallet.transaction-recorded', credit, m, new Map())).toEqual({
      maker: { id: worker, role: null },
      checker: m,
      requestId,
    });
  });
});
