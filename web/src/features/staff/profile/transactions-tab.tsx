import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatTransactionAmount, toDecimal } from '@/lib/money.js';
import { errorText, profileApi, type EditableType, type StaffTransaction } from './api/calls.js';
import { profileKeys, TRANSACTIONS_FAILED, useStaffPrices, useStaffTransactions } from './api/queries.js';
import { FormDialog, FormSelect, TX_STATUS_OPTIONS } from './form-dialog.js';
import { useProfile } from './profile-context.js';
import { historyDate } from './use-flash.js';
import { successOrAwaiting } from '../approvals/api.js';
import { secondApprovalNotice, useApprovalLimit } from '../approvals/advance-notice.js';
import { CustomerApprovals } from '../approvals/approvals-tab.js';

/** A history entry: one transaction, or a swap built from its two legs. */
type Entry = { kind: 'single'; tx: StaffTransaction } | { kind: 'swap'; spent: StaffTransaction; received: StaffTransaction };

/** A signed amount with 2 to 8 decimals; '--.--' when missing (the format module's transaction amount). */
export const signedAmount = (value: string | null | undefined): string => formatTransactionAmount(value);

/** Pairs swap legs: exactly two rows sharing a request id, one negative and one positive. */
export function toEntries(rows: StaffTransaction[]): Entry[] {
  const byRequest = new Map<string, StaffTransaction[]>();
  for (const r of rows) if (r.request_id) byRequest.set(r.request_id, [...(byRequest.get(r.request_id) ?? []), r]);
  const done = new Set<string>();
  const out: Entry[] = [];
  for (const r of rows) {
    if (done.has(r.id)) continue;
    const legs = r.request_id ? byRequest.get(r.request_id)! : [];
    const spent = legs.find((l) => toDecimal(l.amount).isNegative());
    const received = legs.find((l) => !toDecimal(l.amount).isNegative());
    if (legs.length === 2 && spent && received) {
      done.add(spent.id).add(received.id);
      out.push({ kind: 'swap', spent, received });
    } else {
      done.add(r.id);
      out.push({ kind: 'single', tx: r });
    }
  }
  return out;
}

/** Transactions tab (spec 002): the staff history with swap pairs, hidden rows greyed, and the Edit Transaction dialog. */
export function TransactionsTab() {
  const { userId, reload } = useProfile();
  const client = useQueryClient();
  const query = useStaffTransactions(userId);
  const rows = query.data?.pages.flatMap((page) => page.transactions) ?? null;
  const next = query.hasNextPage;
  const loadingMore = query.isFetchingNextPage;
  const error = query.error ? errorText(query.error, TRANSACTIONS_FAILED) : null;
  const [editing, setEditing] = useState<{ tx: StaffTransaction; swap: boolean } | null>(null);

  const loadOlder = () => void query.fetchNextPage();

  return (
    <section className="card profile-card" aria-labelledby="history-title">
      <h2 id="history-title" className="card__title">
        Transaction History
      </h2>
      <CustomerApprovals userId={userId} />
      {!rows && !error && <p className="page-status">Loading history...</p>}
      {error && (
        <div className="banner banner--error" role="alert">
          Error loading transactions: {error}
        </div>
      )}
      {rows && rows.length === 0 && <p className="empty-text">This user has no transaction history yet.</p>}
      {rows && rows.length > 0 && (
        <ul className="history-list">
          {toEntries(rows).map((entry) => (
            <HistoryRow
              key={entry.kind === 'single' ? entry.tx.id : entry.spent.id}
              entry={entry}
              onEdit={(tx, swap) => setEditing({ tx, swap })}
            />
          ))}
        </ul>
      )}
      {rows && next && (
        <nav className="pager" aria-label="Older transactions">
          <button type="button" className="button button--secondary pager__button" disabled={loadingMore} onClick={() => void loadOlder()}>
            {loadingMore ? 'Loading...' : 'Show older transactions'}
          </button>
        </nav>
      )}
      {editing && (
        <EditDialog
          userId={userId}
          tx={editing.tx}
          swap={editing.swap}
          onClose={() => setEditing(null)}
          onSaved={async () => {
            // The pages shown are read again, so the edited row stays in view.
            await client.invalidateQueries({ queryKey: profileKeys.transactions(userId) });
            await reload();
          }}
        />
      )}
    </section>
  );
}

function HistoryRow({ entry, onEdit }: { entry: Entry; onEdit: (tx: StaffTransaction, swap: boolean) => void }) {
  const main = entry.kind === 'single' ? entry.tx : entry.spent;
  const hidden = entry.kind === 'single' ? entry.tx.is_hidden : entry.spent.is_hidden || entry.received.is_hidden;
  const status = main.status;
  const tone = status === 'Pending' ? 'yellow' : status === 'Failed' ? 'red' : entry.kind === 'swap' ? 'purple' : 'green';
  const content = (
    <>
      <span className={`history-icon history-icon--${tone}`} aria-hidden="true">
        {entry.kind === 'swap' ? '⇄' : toDecimal(main.amount).isNegative() ? '↑' : '↓'}
      </span>
      <span className="history-main">
        {entry.kind === 'swap' ? (
          <strong>
            Swap: {entry.spent.asset_id} → {entry.received.asset_id}
          </strong>
        ) : (
          <strong>
            {main.asset_id} <span className="muted">{toDecimal(main.amount).isNegative() ? 'Sent' : 'Received'}</span>
          </strong>
        )}
        {hidden && <span className="muted"> (Hidden)</span>}
        <span className="history-meta">{historyDate(main.sent_at)}</span>
        {main.sender_address && <span className="history-meta mono">From: {main.sender_address}</span>}
        <span className="history-meta mono">ID: {main.txid ?? main.id}</span>
        {main.note && <span className="history-note">{main.note}</span>}
      </span>
      <span className="history-amounts">
        {entry.kind === 'swap' ? (
          <>
            <span className="amount amount--neg">
              {signedAmount(entry.spent.amount)} {entry.spent.asset_id}
            </span>
            <span className="amount amount--pos">
              {signedAmount(entry.received.amount)} {entry.received.asset_id}
            </span>
          </>
        ) : (
          <span className={toDecimal(main.amount).isNegative() ? 'amount amount--neg' : 'amount amount--pos'}>
            {signedAmount(main.amount)} {main.asset_id}
          </span>
        )}
        <span className={`pill pill--${tone}`}>{status}</span>
      </span>
    </>
  );
  if (hidden) {
    return (
      <li className="history-row history-row--hidden" title="This transaction is hidden from the user's view">
        {content}
      </li>
    );
  }
  return (
    <li>
      <button
        type="button"
        className="history-row history-row--button"
        title="Click to edit details"
        onClick={() => onEdit(main, entry.kind === 'swap')}
      >
        {content}
      </button>
    </li>
  );
}

const TYPES = [
  ['', 'Unselected'],
  ['deposit', 'Deposit'],
  ['withdrawal', 'Withdrawal'],
  ['adjustment', 'Adjustment'],
  ['swap', 'Swap'],
] as const;

/** One of the types the select offers (Unselected sends none). */
const isEditableType = (value: string): value is EditableType => TYPES.some(([option]) => option !== '' && option === value);

function EditDialog({
  userId,
  tx,
  swap,
  onClose,
  onSaved,
}: {
  userId: string;
  tx: StaffTransaction;
  swap: boolean;
  onClose: () => void;
  onSaved: () => Promise<void>;
}) {
  const [status, setStatus] = useState(tx.status);
  const editableType = (TYPES.map((t) => t[0]) as readonly string[]).includes(tx.type) ? tx.type : '';
  const [type, setType] = useState(editableType);
  const [note, setNote] = useState(tx.note ?? '');
  const prices = useStaffPrices();
  const limitUsd = useApprovalLimit(userId);
  // Only completing a Pending transaction moves money (a customer's swap leg converts, outside the rule).
  const settles = !swap && tx.status === 'Pending' && status === 'Complete';
  const notice = settles ? secondApprovalNotice({ limitUsd, assetId: tx.asset_id, amount: tx.amount, prices, moment: 'now' }) : null;

  const save = () =>
    profileApi.updateTransaction({
      targetUserId: userId,
      transactionId: tx.id,
      ...(status !== tx.status ? { status } : {}),
      ...(type && type !== editableType && isEditableType(type) ? { type } : {}),
      ...(note !== (tx.note ?? '') ? { note: note.trim() || null } : {}),
    });

  return (
    <FormDialog
      title="Edit Transaction"
      submitLabel="Save Changes"
      onClose={onClose}
      save={save}
      onSaved={onSaved}
      successText={successOrAwaiting('Transaction updated successfully!')}
      failureText="Failed to update transaction."
      notice={notice}
    >
      <p className="muted small">
        {tx.asset_id} {signedAmount(tx.amount)} · <span className="mono">{tx.id}</span>
      </p>
      {swap && <p className="muted small">This is a swap: a status change applies to both of its legs.</p>}
      <div className="profile-form">
        <FormSelect
          id="edit-status"
          label="Status"
          value={status}
          onChange={(value) => setStatus(value as StaffTransaction['status'])}
          options={TX_STATUS_OPTIONS}
        />
        <FormSelect id="edit-type" label="Type" value={type} onChange={setType} options={TYPES} />
        <div className="field">
          <label className="field__label" htmlFor="edit-note">
            Note
          </label>
          <textarea
            id="edit-note"
            className="field__input profile-textarea"
            rows={3}
            maxLength={1000}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
        </div>
      </div>
    </FormDialog>
  );
}
