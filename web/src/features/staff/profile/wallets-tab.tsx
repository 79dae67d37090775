import { useEffect, useRef, useState } from 'react';
import { Banner } from '../../../components/banner.js';
import { Button } from '../../../components/button.js';
import { Field } from '../../../components/field.js';
import { Modal } from '../../../components/modal.js';
import { formatCrypto, formatUsd, toDecimal } from '../../../lib/money.js';
import { ASSET_LIST, errorText, profileApi } from './api.js';
import { useProfile } from './profile-context.js';

const CLOSE_AFTER_MS = 1500;

/** Wallets tab (spec 002): the ten assets with price, balance and USD value; Update Address and Add Tx. */
export function WalletsTab() {
  const { userId, details, reload } = useProfile();
  const [prices, setPrices] = useState<Record<string, { price: number }>>({});
  const [dialog, setDialog] = useState<{ kind: 'address' | 'tx'; asset: string } | null>(null);

  useEffect(() => {
    profileApi.prices().then(setPrices).catch(() => setPrices({}));
  }, []);

  if (!details) return <p className="page-status">Loading...</p>;
  const hasBalances = Object.keys(details.balances ?? {}).length > 0;
  return (
    <section className="card profile-card" aria-labelledby="wallets-title">
      <h2 id="wallets-title" className="card__title">
        Wallets
      </h2>
      {!hasBalances ? (
        <p className="empty-text">No balance data available for this user.</p>
      ) : (
        <div className="profile-table-wrap">
          <table className="profile-table wallets-table">
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
              {ASSET_LIST.map(([symbol, name]) => {
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
                    <td>{price === undefined ? '--.--' : formatUsd(price)}</td>
                    <td className="mono balance-cell">
                      {formatCrypto(balance)}
                      {!pending.isZero() && <div className="muted small">+{formatCrypto(pending)} pending</div>}
                    </td>
                    <td>{price === undefined ? '--.--' : formatUsd(toDecimal(balance).times(price))}</td>
                    
                    <td className="profile-table__actions wallet-actions">
                      <Button variant="secondary" onClick={() => setDialog({ kind: 'address', asset: symbol })} aria-label={`Update Address ${symbol}`}>
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
        <AddressDialog userId={userId} asset={dialog.asset} current={details.addresses?.[dialog.asset] ?? ''} onClose={() => setDialog(null)} onDone={reload} />
      )}
      {dialog?.kind === 'tx' && <AddTxDialog userId={userId} asset={dialog.asset} onClose={() => setDialog(null)} onDone={reload} />}
    </section>
  );
}

function useCloseLater(onClose: () => void) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  return () => {
    timer.current = setTimeout(onClose, CLOSE_AFTER_MS);
  };
}

function AddressDialog({ userId, asset, current, onClose, onDone }: { userId: string; asset: string; current: string; onClose: () => void; onDone: () => Promise<void> }) {
  const [address, setAddress] = useState(current);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const closeLater = useCloseLater(onClose);
  const save = async () => {
    setError(null);
    if (!address.trim()) return setError('Missing required information or address is empty.');
    setBusy(true);
    try {
      await profileApi.setAddress(userId, asset, address.trim());
      setSuccess('Address updated successfully!');
      await onDone();
      closeLater();
    } catch (e) {
      setError(errorText(e, 'An unexpected error occurred.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      onClose={onClose}
      title={`Update ${asset} Address`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void save()} loading={busy} loadingText="Saving..." disabled={Boolean(success)}>
            Save Address
          </Button>
        </>
      }
    >
      {success && <Banner variant="success">{success}</Banner>}
      {error && <Banner variant="error">{error}</Banner>}
      <Field label={`${asset} deposit address *`} value={address} onChange={(e) => setAddress(e.target.value)} className="mono-input" autoComplete="off" />
    </Modal>
  );
}

/** The current local time as a datetime-local value. */
function localNow(): string {
  const d = new Date();
  d.setMinutes(d.getMinutes() - d.getTimezoneOffset());
  return d.toISOString().slice(0, 16);
}

function AddTxDialog({ userId, asset, onClose, onDone }: { userId: string; asset: string; onClose: () => void; onDone: () => Promise<void> }) {
  const [amount, setAmount] = useState('');
  const [sentAt, setSentAt] = useState(localNow);
  const [senderAddress, setSenderAddress] = useState('');
  const [status, setStatus] = useState('Pending');
  const [txid, setTxid] = useState('');
  const [note, setNote] = useState('');
  const [isHidden, setHidden] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const closeLater = useCloseLater(onClose);

  const save = async () => {
    setError(null);
    const value = Number(amount);
    if (!sentAt || !amount.trim() || !Number.isFinite(value) || value <= 0 || !senderAddress.trim() || !status) {
      return setError('Please fill in all required fields (*).');
    }
    setBusy(true);
    try {
      await profileApi.addTransaction({
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
      setSuccess('Transaction added successfully!');
      await onDone();
      closeLater();
    } catch (e) {
      setError(errorText(e, 'An unexpected error occurred.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      onClose={onClose}
      title={`Add ${asset} Transaction`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void save()} loading={busy} loadingText="Saving..." disabled={Boolean(success)}>
            Add Transaction
          </Button>
        </>
      }
    >
      {success && <Banner variant="success">{success}</Banner>}
      {error && <Banner variant="error">{error}</Banner>}
      <div className="profile-form">
        <Field label="Amount *" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} autoComplete="off" />
        <Field label="Sent At *" type="datetime-local" value={sentAt} onChange={(e) => setSentAt(e.target.value)} />
        <Field label="Sender Address *" value={senderAddress} onChange={(e) => setSenderAddress(e.target.value)} autoComplete="off" />
        <div className="field">
          <label className="field__label" htmlFor="add-tx-status">
            Status *
          </label>
          <select id="add-tx-status" className="field__input" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="Pending">Pending</option>
            <option value="Complete">Complete</option>
            <option value="Failed">Failed</option>
          </select>
        </div>
        <Field label="TxID" value={txid} onChange={(e) => setTxid(e.target.value)} autoComplete="off" />
        <Field label="Note (your reason; recorded with your name)" value={note} onChange={(e) => setNote(e.target.value)} maxLength={2000} />
        <label className="profile-check">
          <input type="checkbox" checked={isHidden} onChange={(e) => setHidden(e.target.checked)} /> Hidden from the user
        </label>
      </div>
    </Modal>
  );
}
