import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Banner } from '@/components/banner.js';
import { Button } from '@/components/button.js';
import { Card } from '@/components/card.js';
import { Modal } from '@/components/modal.js';
import { ScreenTitle } from '@/components/screen-title.js';
import { ApiError } from '@/lib/api-client.js';
import { useSubmit } from '@/lib/use-submit.js';
import { Decimal } from 'decimal.js';
import { cleanAmountInput, formatCrypto, formatUsd, parseAmountInput } from '@/lib/money.js';
import { quoteSwap, type SwapQuote } from '@ledger/swap/quote.js';
import { ASSET_IDS, ASSETS, type AssetId } from '../shared/assets.js';
import { availableBalance, priceOf } from '../shared/balances.js';
import { AssetIcon } from '../shared/components/asset-icon.js';
import { useProfileDetails } from '../shared/api/profile.js';
import { usePrices } from '../shared/api/prices.js';
import { createSwapRequest, pickerLabel, swapButtonLabel, SWAP_TEXT as T } from './api/swap.js';
import './swap.css';

function TokenPicker({
  id,
  label,
  value,
  onChange,
  disabled,
}: {
  id: string;
  label: string;
  value: AssetId;
  onChange: (a: AssetId) => void;
  disabled?: boolean;
}) {
  return (
    <div className="swap-picker">
      <AssetIcon asset={value} />
      <label className="visually-hidden" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="field__input field__select"
        value={value}
        onChange={(e) => onChange(e.target.value as AssetId)}
        disabled={disabled}
      >
        {ASSET_IDS.map((a) => (
          <option key={a} value={a}>
            {pickerLabel(a, ASSETS[a].name)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** /dashboard/marketplace/swap (spec 001 sections 2, 4, 5, 9: Swap Tokens). */
export function SwapPage() {
  const { profile, error: profileError, reload } = useProfileDetails();
  const { prices, error: pricesError } = usePrices();
  const [from, setFrom] = useState<AssetId>('BTC');
  const [to, setTo] = useState<AssetId>('ETH');
  const [amount, setAmount] = useState('');
  const [confirming, setConfirming] = useState(false);
  // The success stays until the next edit.
  const swapping = useSubmit({ successMs: null });
  const { busy, error, success } = swapping;

  const permitted = profile?.can_swap !== false;
  const value = parseAmountInput(amount);
  const available = availableBalance(profile, from);
  const exceeds = value !== null && value.greaterThan(available);
  const valid = value !== null && value.greaterThan(0) && !exceeds;
  const fromPrice = priceOf(prices, from);
  const toPrice = priceOf(prices, to);
  let quote: SwapQuote | null = null;
  let rate: string | null = null;
  if (fromPrice && toPrice && fromPrice.greaterThan(0) && toPrice.greaterThan(0)) {
    rate = fromPrice.dividedBy(toPrice).toFixed();
    if (value && value.greaterThan(0)) quote = quoteSwap(value.toFixed(), fromPrice.toFixed(), toPrice.toFixed());
  }

  // The form opens on something the customer can swap: BTC when they hold some, else the
  // asset they hold most of by value (BTC when prices are unknown yet), once, before any edit.
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current || !profile) return;
    if (availableBalance(profile, from).greaterThan(0)) {
      opened.current = true;
      return;
    }
    let best: AssetId | null = null;
    let bestValue = new Decimal(0);
    for (const asset of ASSET_IDS) {
      const held = availableBalance(profile, asset);
      if (held.isZero()) continue;
      const worth = held.times(priceOf(prices, asset) ?? 0);
      if (best === null || worth.greaterThan(bestValue)) [best, bestValue] = [asset, worth];
    }
    // Nothing held yet (or not read yet): decide when the balances say something.
    if (best === null) return;
    opened.current = true;
    if (best === to) setTo(from);
    setFrom(best);
  }, [profile, prices, from, to]);

  const touched = () => {
    opened.current = true;
    swapping.reset();
  };
  // Choosing on one side the token already on the other side exchanges the two.
  const pickFrom = (asset: AssetId) => {
    if (asset === to) setTo(from);
    setFrom(asset);
    touched();
  };
  const pickTo = (asset: AssetId) => {
    if (asset === from) setFrom(to);
    setTo(asset);
    touched();
  };
  const flip = () => {
    setFrom(to);
    setTo(from);
    touched();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!permitted || busy) return;
    if (!valid || !quote) return swapping.fail(T.invalidSubmit);
    setConfirming(true);
  };

  const confirm = async () => {
    if (!value) return;
    await swapping.run(
      async () => {
        await createSwapRequest({ fromTokenId: from, toTokenId: to, fromAmount: value.toFixed() });
        setAmount('');
        reload();
        return T.success;
      },
      (e) => (e instanceof ApiError && e.status !== null && e.message ? T.failedWith(e.message) : T.failed),
    );
    setConfirming(false);
  };

  return (
    <div className="customer-screen swap">
      <ScreenTitle>Swap Tokens</ScreenTitle>
      {profileError && <Banner variant="error">{profileError}</Banner>}
      {pricesError && <Banner variant="error">{pricesError}</Banner>}
      <Card className="overview-card swap-card">
        <form className="swap-form" onSubmit={submit} noValidate>
          {!permitted && <Banner variant="info">{profile?.swap_disabled_note || T.disabled}</Banner>}
          <div className="swap-side">
            <div className="swap-side__head">
              <span className="field__label">From</span>
              <span className="muted">
                Available: <span className="mono">{formatCrypto(available)}</span> {from}
              </span>
            </div>
            <div className="swap-side__row">
              <TokenPicker id="swap-from" label="From token" value={from} onChange={pickFrom} disabled={!permitted} />
              <label className="visually-hidden" htmlFor="swap-amount">
                Amount
              </label>
              <input
                id="swap-amount"
                className="field__input swap-amount mono"
                inputMode="decimal"
                autoComplete="off"
                placeholder="0.00"
                value={amount}
                onChange={(e) => {
                  setAmount(cleanAmountInput(e.target.value));
                  touched();
                }}
                aria-invalid={exceeds || undefined}
                disabled={!permitted}
              />
            </div>
            {exceeds && <p className="field__error">{T.insufficientInline}</p>}
          </div>

          <div className="swap-flip">
            <button type="button" className="icon-button" onClick={flip} aria-label="Exchange the tokens" disabled={!permitted}>
              ⇅
            </button>
          </div>

          <div className="swap-side">
            <div className="swap-side__head">
              <span className="field__label">To</span>
            </div>
            <div className="swap-side__row">
              <TokenPicker id="swap-to" label="To token" value={to} onChange={pickTo} disabled={!permitted} />
              <output className="swap-amount swap-amount--out mono" htmlFor="swap-amount" aria-label="You receive">
                {quote ? formatCrypto(quote.netReceived) : '0.00000000'}
              </output>
            </div>
          </div>

          <dl className="fee-lines">
            <div>
              <dt>Rate</dt>
              <dd className="mono" data-testid="swap-rate">
                {rate ? `1 ${from} ≈ ${formatCrypto(rate)} ${to}` : '—'}
              </dd>
            </div>
            <div>
              <dt>Fee (1%)</dt>
              <dd className="mono">{quote ? `${formatCrypto(quote.fee)} ${from} (${formatUsd(quote.feeUsd)})` : `0.00000000 ${from}`}</dd>
            </div>
            <div className="fee-lines__total">
              <dt>Net received</dt>
              <dd className="mono">
                {quote ? formatCrypto(quote.netReceived) : '0.00000000'} {to}
              </dd>
            </div>
          </dl>

          {error && <Banner variant="error">{error}</Banner>}
          {success && (
            <Banner variant="success">
              {success} <Link to="/dashboard/transactions">View transactions</Link>
            </Banner>
          )}

          <Button type="submit" className="button--block" disabled={!permitted || !valid || !quote}>
            {swapButtonLabel({ permitted, amountPositive: value !== null && value.greaterThan(0), exceeds })}
          </Button>
        </form>
      </Card>

      <Modal
        open={confirming}
        onClose={() => !busy && setConfirming(false)}
        title="Confirm Swap"
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(false)} disabled={busy}>
              Cancel
            </Button>
            <Button onClick={() => void confirm()} loading={busy} loadingText="Swapping...">
              Confirm Swap
            </Button>
          </>
        }
      >
        {quote && (
          <dl className="detail-list">
            <div className="detail-list__item">
              <dt>You pay</dt>
              <dd className="mono">
                {formatCrypto(quote.fromAmount)} {from}
              </dd>
            </div>
            <div className="detail-list__item">
              <dt>You receive</dt>
              <dd className="mono">
                {formatCrypto(quote.netReceived)} {to}
              </dd>
            </div>
            <div className="detail-list__item">
              <dt>Rate</dt>
              <dd className="mono">
                1 {from} ≈ {formatCrypto(quote.rate)} {to}
              </dd>
            </div>
            <div className="detail-list__item">
              <dt>Fee (1%)</dt>
              <dd className="mono">
                {formatCrypto(quote.fee)} {from}
              </dd>
            </div>
          </dl>
        )}
        <p className="muted swap-confirm-note">The final amount is quoted from the prices at the moment the swap is recorded.</p>
      </Modal>
    </div>
  );
}
