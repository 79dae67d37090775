import { useState } from 'react';
import { successOrAwaiting } from '../approvals/api.js';
import { secondApprovalNotice, useApprovalLimit } from '../approvals/advance-notice.js';
import { CustomerApprovals } from '../approvals/approvals-tab.js';
import { Button } from '@/components/button.js';
import { Field } from '@/components/field.js';
import { formatCrypto, formatListDateTime, formatUsd, toDecimal } from '@/lib/money.js';
import { parseAmount } from '@ledger/money.js';
import { ASSET_LIST, profileApi } from './api/calls.js';
import { useStaffPrices } from './api/queries.js';
import { FormDialog, FormSelect, TX_STATUS_OPTIONS } from './form-dialog.js';
import { useProfile } from './profile-context.js';

/** Wallets tab (spec 002): the ten assets with price, balance and USD value; Update Address and Add Tx. */
export function WalletsTab() {
  const { userId, details, reload } = useProfile();
  const prices = useStaffPrices();
  const [dialog, setDialog] = useState<{ kind: 'address' | 'tx'; asset: string } | null>(null);

  if (!details) return <p className="page-status">Loading...</p>;
  const hasBalances = Object.keys(details.balances ?? {}).length > 0;
  return (
    <section className="card profile-card" aria-labelledby="wallets-title">
      <h2 id="wallets-title" className="card__title">
        Wallets
      </h2>
      <CustomerApprovals userId={userId} />
      {!hasBalances ? (
        <p className="empty-text">No balance data available for this user.</p>
      ) : (
        <div className="profile-table-wrap">
          <table className="profile-table wallets-table table--stack">
            <thead>
              <tr>
                <th scope="col">Asset</th>
                <th scope="col">Price</th>
                <th scope="col">Balance</th>
                <th scope="col">USD Value</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {ASSET_LIST.map(({ id: symbol, name }) => {
                const price = prices[symbol]?.price;
                const balance = details.balances[symbol] ?? '0';
                const pending = toDecimal(details.pendingDeposits?.[symbol]);
                return (
                  <tr key={symbol} data-asset={symbol}>
                    <th scope="row">
                      <span className="asset-symbol">{symbol}</span> <span className="muted">{name}</span>
                      <div className="mono small address-cell" title={details.addresses?.[symbol] ?? undefined}>
                        {details.addresses?.[symbol] ?? <span className="muted">No address set</span>}
                      </div>
                    </th>
                    <td data-label="Price">{price === undefined ? '--.--' : formatUsd(price)}</td>
                    <td data-label="Balance" className="mono balance-cell">
                      {formatCrypto(balance)}
                      {!pending.isZero() && <div className="muted small">+{formatCrypto(pending)} pending</div>}
                    </td>
                    <td data-label="USD Value">{price === undefined ? '--.--' : formatUsd(toDecimal(balance).times(price))}</td>

                    <td className="profile-table__actions wallet-actions">
                      <Button
                        variant="secondary"
                        onClick={() => setDialog({ kind: 'address', asset: symbol })}
                        aria-label={`Update Address ${symbol}`}
                      >
                        Update Address
                      </Button>
                      <Button variant="secondary" onClick={() => setDialog({ kind: 'tx', asset: symbol })} aria-label={`Add Tx ${symbol}`}>
                        Add Tx
                      </Button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {dialog?.kind === 'address' && (
        <AddressDialog
          userId={userId}
          asset={dialog.asset}
          current={details.addresses?.[dialog.asset] ?? ''}
          onClose={() => setDialog(null)}
          onDone={reload}
        />
      )}
      {dialog?.kind === 'tx' && <AddTxDialog userId={userId} asset={dialog.asset} onClose={() => setDialog(null)} onDone={reload} />}
    </section>
  );
}

function AddressDialog({
  userId,
  asset,
  current,
  onClose,
  onDone,
}: {
  userId: string;
  asset: string;
  current: string;
  onClose: () => void;
  onDone: () => Promise<void>;
}) {
  const [address, setAddress] = useState(current);
  return (
    <FormDialog
      title={`Update ${asset} Address`}
      submitLabel="Save Address"
      onClose={onClose}
      validate={() => (address.trim() ? null : 'Missing required information or address is empty.')}
      save={() => profileApi.setAddress(userId, asset, address.trim())}
      onSaved={onDone}
      successText="Address updated successfully!"
      failureText="An unexpected error occurred."
    >
      <Field
        label={`${asset} deposit address *`}
        value={address}
        onChange={(e) => setAddress(e.target.value)}
        className="mono-input"
        autoComplete="off"
      />
    </FormDialog>
  );
}

/** The current local time as a datetime-local value. */
function localNow(): string {
  const d = new Date();
  d.setMinutes(d.getMinutes() - d.getTimezoneOffset());
  return d.toISOString().slice(0, 16);
}

function AddTxDialog({
  userId,
  asset,
  onClose,
  onDone,
}: {
  userId: string;
  asset: string;
  onClose: () => void;
  onDone: () => Promise<void>;
}) {
  const [amount, setAmount] = useState('');
  const [sentAt, setSentAt] = useState(localNow);
  const [senderAddress, setSenderAddress] = useState('');
  const [status, setStatus] = useState('Pending');
  const [txid, setTxid] = useState('');
  const [note, setNote] = useState('');
  const [isHidden, setHidden] = useState(false);
  const prices = useStaffPrices();
  const limitUsd = useApprovalLimit(userId);
  // A Complete transaction moves money on submit; a Pending one when it is completed; a Failed one never.
  const notice =
    status === 'Failed'
      ? null
      : secondApprovalNotice({ limitUsd, assetId: asset, amount, prices, moment: status === 'Complete' ? 'now' : 'on-completion' });

  const validate = () => {
    // The server's own amount rule (add-transaction reads the amount with it): a plain decimal
    // above 0, no leading zero, point or exponent, at most 18 decimals.
    const complete = sentAt && parseAmount(amount).ok && senderAddress.trim() && status;
    return complete ? null : 'Please fill in all required fields (*).';
  };
  const save = () =>
    profileApi.addTransaction({
      targetUserId: userId,
      assetId: asset,
      sentAt: new Date(sentAt).toISOString(),
      // The typed text goes as it is, so no digit is lost to a float.
      amount: amount.trim(),
      status,
      txid: txid.trim() || null,
      senderAddress: senderAddress.trim(),
      note: note.trim() || null,
      isHidden,
    });

  return (
    <FormDialog
      title={`Add ${asset} Transaction`}
      submitLabel="Add Transaction"
      onClose={onClose}
      validate={validate}
      save={save}
      onSaved={onDone}
      successText={successOrAwaiting('Transaction added successfully!')}
      failureText="An unexpected error occurred."
      notice={notice}
    >
      <div className="profile-form">
        <Field label="Amount *" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} autoComplete="off" />
        <Field
          label="Sent At *"
          type="datetime-local"
          value={sentAt}
          onChange={(e) => setSentAt(e.target.value)}
          hint={formatListDateTime(sentAt) ? `${formatListDateTime(sentAt)} (your time zone)` : undefined}
        />
        <Field label="Sender Address *" value={senderAddress} onChange={(e) => setSenderAddress(e.target.value)} autoComplete="off" />
        <FormSelect id="add-tx-status" label="Status *" value={status} onChange={setStatus} options={TX_STATUS_OPTIONS} />
        <Field label="TxID" value={txid} onChange={(e) => setTxid(e.target.value)} autoComplete="off" />
        <Field
          label="Note (your reason; recorded with your name)"
          value={note}
          onChange={(e) => setNote(e.target.value)}
          maxLength={2000}
        />
        <label className="profile-check">
          <input type="checkbox" checked={isHidden} onChange={(e) => setHidden(e.target.checked)} /> Hidden from the user
        </label>
      </div>
    </FormDialog>
  );
}
