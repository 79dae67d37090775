import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Banner } from '@/components/banner.js';
import { Button } from '@/components/button.js';
import { serverWords } from '@/lib/error-text.js';
import { useSession } from '@/lib/session.js';
import { useSubmit } from '@/lib/use-submit.js';
import { formatListDateTime, formatTransactionAmount, formatUsd } from '@/lib/money.js';
import {
  ACTION_LABELS,
  age,
  approvalKeys,
  approvalLine,
  APPROVALS_FAILED,
  approvalsApi,
  useCustomerApprovals,
  useMyApprovals,
  useWaitingApprovals,
  type Approval,
} from './api.js';
import { ScrollArea } from '@/components/scroll-area.js';

const STATUS_LABELS: Record<Approval['status'], string> = {
  pending: 'Waiting',
  approved: 'Approved',
  rejected: 'Rejected',
  expired: 'Expired',
};

/** The request's amount: 2 to 8 decimals with its sign, thousands separated (the format module). */
const signedAmount = (a: Approval) => formatTransactionAmount(a.amount);

/** One waiting request: its facts, and Approve / Reject with a reason. */
function WaitingRow({ a, onDecided }: { a: Approval; onDecided: () => Promise<void> }) {
  const [decision, setDecision] = useState<'approve' | 'reject' | null>(null);
  const [reason, setReason] = useState('');
  const deciding = useSubmit();
  const busy = deciding.busy;
  const submit = async () => {
    if (!decision) return;
    if (!reason.trim()) return deciding.fail('Please give a reason for your decision.');
    await deciding.run(async () => {
      await approvalsApi.decide(a.requestId, decision, reason.trim());
      await onDecided();
    }, APPROVALS_FAILED);
  };
  return (
    <>
      <tr>
        <td data-label="Customer">
          <div>
            {a.customerName || a.customerEmail}
            <div className="muted small">{a.customerEmail}</div>
          </div>
        </td>
        <td data-label="Action">{ACTION_LABELS[a.action]}</td>
        <td data-label="Amount" className="mono approvals__nowrap">
          {signedAmount(a)} {a.assetId}
        </td>
        <td data-label="Value" className="mono approvals__nowrap">
          {formatUsd(a.valueUsd)}
        </td>
        <td data-label="Maker" className="approvals__nowrap">
          {a.makerName || a.makerEmail}
        </td>
        <td data-label="Age" className="approvals__nowrap">
          {age(a.requestedAt)}
        </td>
        <td className="staff-table__actions">
          {a.decideRefusal ? (
            // Separation of duties: the server would refuse this checker, so it offers no buttons.
            <p className="muted small approvals__refusal">{a.decideRefusal}</p>
          ) : (
            <div className="approvals__actions">
              <Button variant="primary" onClick={() => setDecision('approve')} disabled={busy}>
                Approve
              </Button>
              <Button variant="secondary" onClick={() => setDecision('reject')} disabled={busy}>
                Reject
              </Button>
            </div>
          )}
        </td>
      </tr>
      {decision && (
        <tr className="approvals__decision">
          <td colSpan={7}>
            <label className="field__label" htmlFor={`reason-${a.requestId}`}>
              Reason to {decision} *
            </label>
            <textarea
              id={`reason-${a.requestId}`}
              className="field__input"
              rows={2}
              maxLength={500}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
            />
            {deciding.error && <Banner variant="error">{deciding.error}</Banner>}
            <div className="approvals__actions">
              <Button onClick={() => void submit()} loading={busy} loadingText="Saving...">
                Confirm {decision === 'approve' ? 'approval' : 'rejection'}
              </Button>
              <Button variant="secondary" onClick={() => setDecision(null)} disabled={busy}>
                Cancel
              </Button>
            </div>
          </td>
        </tr>
      )}
    </>
  );
}

/**
 * Approvals (two-person rule): for a manager the waiting requests of their team, for an admin
 * all of them, each approved or rejected with a reason; and for every staff member their own
 * requests and how they ended. Live: the list reloads when the server says it changed.
 */
export function ApprovalsTab() {
  const role = useSession((s) => s.role);
  const checker = role === 'MANAGER' || role === 'ADMIN';
  const client = useQueryClient();
  const waitingQuery = useWaitingApprovals(checker);
  const mineQuery = useMyApprovals();
  const waiting = waitingQuery.data?.approvals ?? null;
  const limit = waitingQuery.data?.limitUsd ?? null;
  const mine = mineQuery.data?.approvals ?? null;
  const failed = (checker ? waitingQuery.error : null) ?? mineQuery.error;
  const error = failed ? serverWords(failed, APPROVALS_FAILED) : null;
  const reload = () => client.invalidateQueries({ queryKey: approvalKeys.all });

  return (
    <div className="approvals">
      {error && <Banner variant="error">{error}</Banner>}
      {checker && (
        <section className="card staff-card" aria-labelledby="approvals-waiting">
          <h2 id="approvals-waiting" className="card__title">
            Waiting for your approval
          </h2>
          <p className="card__subtitle">
            Staff actions worth more than {limit ? formatUsd(limit) : 'the limit'}, past a day&rsquo;s limit or valued at a price that
            cannot be trusted alone move no money until a second person approves them.
            {role === 'MANAGER' ? ' These are your workers\u2019 requests.' : ' These are all requests.'}
          </p>
          {waiting === null ? (
            <p className="muted">Loading...</p>
          ) : waiting.length === 0 ? (
            <p className="muted">No requests are waiting.</p>
          ) : (
            <ScrollArea className="staff-table-wrap" label="Requests waiting for your approval">
              <table className="staff-table approvals__table table--stack">
                <thead>
                  <tr>
                    <th scope="col">Customer</th>
                    <th scope="col">Action</th>
                    <th scope="col">Amount</th>
                    <th scope="col">Value</th>
                    <th scope="col">Maker</th>
                    <th scope="col">Age</th>
                    <th scope="col">
                      <span className="visually-hidden">Decision</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {waiting.map((a) => (
                    <WaitingRow key={a.requestId} a={a} onDecided={reload} />
                  ))}
                </tbody>
              </table>
            </ScrollArea>
          )}
        </section>
      )}
      <section className="card staff-card" aria-labelledby="approvals-mine">
        <h2 id="approvals-mine" className="card__title">
          My requests
        </h2>
        {mine === null ? (
          <p className="muted">Loading...</p>
        ) : mine.length === 0 ? (
          <p className="muted">You have no requests.</p>
        ) : (
          <ScrollArea className="staff-table-wrap" label="My requests">
            <table className="staff-table approvals__table approvals__mine table--stack">
              <thead>
                <tr>
                  <th scope="col">Requested</th>
                  <th scope="col">Customer</th>
                  <th scope="col">Amount</th>
                  <th scope="col">Value</th>
                  <th scope="col">Status</th>
                  <th scope="col">Checker</th>
                </tr>
              </thead>
              <tbody>
                {mine.map((a) => (
                  <tr key={a.requestId}>
                    <td data-label="Requested" className="approvals__nowrap">
                      {formatListDateTime(a.requestedAt)}
                    </td>
                    <td data-label="Customer">
                      <div>
                        {a.customerName || a.customerEmail}
                        {a.customerName && <div className="muted small">{a.customerEmail}</div>}
                      </div>
                    </td>
                    <td data-label="Amount" className="mono approvals__nowrap">
                      {signedAmount(a)} {a.assetId}
                    </td>
                    <td data-label="Value" className="mono approvals__nowrap">
                      {formatUsd(a.valueUsd)}
                    </td>
                    <td data-label="Status">
                      <span className={`approvals__status approvals__status--${a.status}`}>{STATUS_LABELS[a.status]}</span>
                    </td>
                    <td data-label="Checker">
                      {a.checkerName || a.checkerEmail || <span className="muted">-</span>}
                      {a.reason && <div className="muted small">Reason: {a.reason}</div>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollArea>
        )}
      </section>
    </div>
  );
}

/** A customer's requests on their profile: what waits for a second person, and who decided the rest. */
export function CustomerApprovals({ userId }: { userId: string }) {
  const approvals = useCustomerApprovals(userId);
  // A failed read shows nothing, as an empty list does.
  const list = approvals.error ? [] : (approvals.data?.approvals ?? []);
  if (list.length === 0) return null;
  return (
    <section className="approvals__customer" aria-label="Second approvals">
      {list.slice(0, 10).map((a) => (
        <Banner key={a.requestId} variant={a.status === 'pending' ? 'info' : a.status === 'approved' ? 'success' : 'error'}>
          {approvalLine(a)}
        </Banner>
      ))}
    </section>
  );
}
