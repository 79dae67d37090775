import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Banner } from '@/components/banner.js';
import { Button } from '@/components/button.js';
import { Modal } from '@/components/modal.js';
import { ApiError } from '@/lib/api-client.js';
import { cleanAmountInput, formatCrypto, formatFullDateTime, parseAmountInput } from '@/lib/money.js';
import { useSession } from '@/lib/session.js';
import { useSubmit } from '@/lib/use-submit.js';
import { checkStakeAmount, estimatedEarnings, STAKE_MESSAGES as M, STAKE_PLANS, type StakeableAsset } from '@ledger/staking/plans.js';
import type { ProfileDetails } from '@/features/customer/shared/api/profile.js';
import { assetName } from '@/features/customer/shared/assets.js';
import { availableBalance } from '@/features/customer/shared/balances.js';
import { createStake, STAKE_TEXT } from '../api/stake.js';

/** The stake modal closes this long after a success (spec 001 section 9). */
export const CLOSE_AFTER_SUCCESS_MS = 1500;
const DAY_MS = 86_400_000;

type StakeModalProps = {
  asset: StakeableAsset | null;
  profile: ProfileDetails | null;
  onClose: () => void;
  onStaked: () => void;
};

/** Choose a plan, enter an amount (or MAX), stake. */
export function StakeModal({ asset, profile, onClose, onStaked }: StakeModalProps) {
  const userId = useSession((s) => s.user?.id ?? null);
  const [days, setDays] = useState<number | null>(null);
  const [amount, setAmount] = useState('');
  // The success stays until the modal closes itself.
  const staking = useSubmit({ successMs: null });
  const { busy, error, success, reset } = staking;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    setDays(asset ? STAKE_PLANS[asset][0]!.days : null);
    setAmount('');
    reset();
  }, [asset, reset]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const plans = asset ? STAKE_PLANS[asset] : [];
  const plan = plans.find((p) => p.days === days) ?? null;
  const available = asset ? availableBalance(profile, asset) : null;
  const value = parseAmountInput(amount);
  const short = value !== null && available !== null && value.greaterThan(available);
  const earnings = plan && value && value.greaterThan(0) ? estimatedEarnings(value.toFixed(), plan.rate, plan.days) : null;
  const permitted = profile?.can_stake !== false;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || success) return;
    staking.clearError();
    if (!permitted) return staking.fail(profile?.stake_disabled_note || M.notAllowed);
    if (!asset || !plan || !userId || !profile || available === null) return staking.fail(M.missing);
    const check = checkStakeAmount(plan, asset, value ? value.toFixed() : 'x', available.toFixed(), (d) => formatCrypto(d));
    if (!check.ok) return staking.fail(check.message);
    await staking.run(
      async () => {
        const answer = await createStake({ assetId: asset, amount: value!.toFixed(), durationDays: plan.days, rate: plan.rate });
        onStaked();
        timer.current = setTimeout(onClose, CLOSE_AFTER_SUCCESS_MS);
        return answer.message || `Successfully staked ${value!.toFixed()} ${asset}.`;
      },
      (e) => (e instanceof ApiError && e.status !== null && e.message ? e.message : STAKE_TEXT.unexpected),
    );
  };

  return (
    <Modal
      open={asset !== null}
      onClose={onClose}
      title={asset ? `Stake ${assetName(asset)} (${asset})` : 'Stake'}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="stake-form" loading={busy} loadingText="Staking..." disabled={!!success}>
            Stake
          </Button>
        </>
      }
    >
      {asset && (
        <form id="stake-form" className="stake-form" onSubmit={(e) => void submit(e)} noValidate>
          {!permitted && <Banner variant="info">{profile?.stake_disabled_note || M.notAllowed}</Banner>}
          <fieldset className="stake-plans-choice">
            <legend className="field__label">Plan</legend>
            {plans.map((p) => (
              <label key={p.days} className={`stake-choice${p.days === days ? ' stake-choice--selected' : ''}`}>
                <input
                  type="radio"
                  name="stake-plan"
                  value={p.days}
                  checked={p.days === days}
                  onChange={() => {
                    setDays(p.days);
                    staking.clearError();
                  }}
                />
                <span className="stake-choice__days">{p.days} Days</span>
                <span className="stake-choice__rate">{p.rate}% APY</span>
              </label>
            ))}
          </fieldset>

          <div className="field">
            <div className="field__label-row">
              <label className="field__label" htmlFor="stake-amount">
                Amount
              </label>
              <span className="muted">
                Available: <span className="mono">{formatCrypto(available)}</span> {asset}
              </span>
            </div>
            <div className="amount-row">
              <input
                id="stake-amount"
                className="field__input amount-row__input mono"
                inputMode="decimal"
                autoComplete="off"
                placeholder="0.00"
                value={amount}
                onChange={(e) => {
                  setAmount(cleanAmountInput(e.target.value));
                  staking.clearError();
                }}
                aria-invalid={short || undefined}
              />
              <Button variant="secondary" onClick={() => available && setAmount(available.toFixed())}>
                MAX
              </Button>
            </div>
            {short && <p className="field__error">{M.insufficientInline}</p>}
            {plan && (
              <p className="field__hint">
                Min {plan.minValue} {asset} · Max {plan.maxValue} {asset}
              </p>
            )}
          </div>

          {plan && (
            <dl className="fee-lines">
              <div>
                <dt>Duration</dt>
                <dd>{plan.days} days</dd>
              </div>
              <div>
                <dt>APY</dt>
                <dd>{plan.rate}%</dd>
              </div>
              <div>
                <dt>Matures</dt>
                <dd>{formatFullDateTime(Date.now() + plan.days * DAY_MS)}</dd>
              </div>
              <div className="fee-lines__total">
                <dt>Estimated earnings</dt>
                <dd className="mono">
                  {formatCrypto(earnings ?? '0')} {asset}
                </dd>
              </div>
            </dl>
          )}

          {error && <Banner variant="error">{error}</Banner>}
          {success && <Banner variant="success">{success}</Banner>}
        </form>
      )}
    </Modal>
  );
}
