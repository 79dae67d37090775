import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Banner } from '@/components/banner.js';
import { Button } from '@/components/button.js';
import { ApiError } from '@/lib/api-client.js';
import { useSubmit } from '@/lib/use-submit.js';
import { SubmitMessages } from '@/components/submit-messages.js';
import { cleanAmountInput, formatAmount, formatCrypto, parseAmountInput } from '@/lib/money.js';
import { useSession } from '@/lib/session.js';
import { useFocusFirstError } from '@/lib/use-focus-first-error.js';
import { describePaymentMethod, type PaymentMethod } from '@/features/customer/shared/api/payment-methods.js';
import type { ProfileDetails } from '@/features/customer/shared/api/profile.js';
import { ASSET_IDS, ASSETS, isAssetId } from '@/features/customer/shared/assets.js';
import { availableBalance } from '@/features/customer/shared/balances.js';
import { SelectField } from '@/features/customer/shared/components/select-field.js';
import { requestPayment, type PaymentKind } from '../api/requests.js';
import { feeOf, PAYMENT_MESSAGES as M, totalOf } from '../rules.js';

type PaymentFormProps = {
  kind: PaymentKind;
  profile: ProfileDetails | null;
  methods: PaymentMethod[];
  methodsLoading: boolean;
  methodsError: string | null;
  /** After a request went through: the balances are read again. */
  onSubmitted: () => void;
};

type Errors = { amount?: string; token?: string; method?: string };

function methodLabel(method: PaymentMethod): string {
  const base = describePaymentMethod(method);
  return method.type === 'credit_card' && method.expiry_date ? `${base} (exp. ${method.expiry_date})` : base;
}

/** One tab of Payments: method, amount with token, fee and total, submit (spec 001 sections 2, 5, 9). */
export function PaymentForm({ kind, profile, methods, methodsLoading, methodsError, onSubmitted }: PaymentFormProps) {
  const userId = useSession((s) => s.user?.id ?? null);
  const [methodId, setMethodId] = useState('');
  const [amount, setAmount] = useState('');
  const [token, setToken] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  // The form's own error (a refusal, too little balance) and its success stay until the next edit.
  const submit = useSubmit({ successMs: null });
  const [attempt, setAttempt] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstError(formRef, attempt);

  const permitted = kind === 'deposit' ? profile?.can_buy !== false : profile?.can_sell !== false;
  const disabledNote = kind === 'deposit' ? profile?.buy_disabled_note || M.noDeposits : profile?.sell_disabled_note || M.noWithdrawals;
  // Deposits are charged to a card only; withdrawals may go to any saved method.
  const offered = kind === 'deposit' ? methods.filter((m) => m.type === 'credit_card') : methods;
  const value = parseAmountInput(amount);
  const asset = isAssetId(token) ? token : null;
  const fee = value ? feeOf(value) : null;
  const total = value ? totalOf(kind, value) : null;
  const available = asset ? availableBalance(profile, asset) : null;
  const short = kind === 'withdrawal' && asset && total && available && total.greaterThan(available);

  const edit = () => {
    submit.reset();
    setErrors({});
  };

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (submit.busy || !permitted) return;
    submit.reset();
    const found: Errors = {};
    if (!value || value.isZero()) found.amount = M.amount;
    if (!asset) found.token = M.token;
    if (!methodId || !offered.some((m) => m.id === methodId)) found.method = M.method;
    setErrors(found);
    const formError = Object.keys(found).length === 0 && short ? M.insufficient(asset) : null;
    if (formError) submit.fail(formError);
    if (Object.keys(found).length > 0 || formError) {
      setAttempt((n) => n + 1);
      return;
    }
    await submit.run(
      async () => {
        await requestPayment(kind, { tokenId: asset!, amount: value!.toFixed(), paymentMethodId: methodId, userId: userId ?? '' });
        setAmount('');
        onSubmitted();
        return M.success(kind);
      },
      (error) => (error instanceof ApiError && error.status !== null ? error.message : M.failed(kind)),
    );
  };

  const label = kind === 'deposit' ? 'Deposit' : 'Withdraw';

  return (
    <form ref={formRef} className="payment-form" onSubmit={(e) => void send(e)} noValidate>
      {!permitted && <Banner variant="info">{disabledNote}</Banner>}

      {methodsLoading ? (
        <p className="muted field" role="status">
          Loading payment methods...
        </p>
      ) : methodsError ? (
        <Banner variant="error">{methodsError}</Banner>
      ) : (
        <SelectField
          label="Payment Method"
          labelAction={
            <Link to="/dashboard/settings" state={{ activeTab: 'paymentMethods' }} className="field__action">
              Edit
            </Link>
          }
          value={methodId}
          onChange={(e) => {
            setMethodId(e.target.value);
            edit();
          }}
          error={errors.method}
          hint={offered.length === 0 ? <AddOne text={kind === 'deposit' ? M.noCards : M.noMethods} /> : undefined}
          disabled={!permitted || offered.length === 0}
        >
          <option value="">{offered.length === 0 ? 'None saved' : 'Select a payment method'}</option>
          {offered.map((m) => (
            <option key={m.id} value={m.id}>
              {methodLabel(m)}
            </option>
          ))}
        </SelectField>
      )}

      <div className="field">
        <label className="field__label" htmlFor={`${kind}-amount`}>
          Amount
        </label>
        <div className="amount-row">
          <input
            id={`${kind}-amount`}
            name="amount"
            className="field__input amount-row__input"
            inputMode="decimal"
            autoComplete="off"
            placeholder="0.00"
            value={amount}
            onChange={(e) => {
              setAmount(cleanAmountInput(e.target.value));
              edit();
            }}
            aria-invalid={errors.amount || short ? true : undefined}
            aria-describedby={`${kind}-amount-notes`}
            disabled={!permitted}
          />
          <select
            className="field__input field__select amount-row__token"
            aria-label="Token"
            value={token}
            onChange={(e) => {
              setToken(e.target.value);
              edit();
            }}
            aria-invalid={errors.token ? true : undefined}
            disabled={!permitted}
          >
            <option value="">Token</option>
            {ASSET_IDS.map((id) => (
              <option key={id} value={id} title={ASSETS[id].name}>
                {id}
              </option>
            ))}
          </select>
        </div>
        <div id={`${kind}-amount-notes`}>
          {kind === 'withdrawal' && asset && available && (
            <p className="field__hint">
              Available: <span className="mono">{formatCrypto(available)}</span> {asset}
            </p>
          )}
          {short && <p className="field__error">{M.insufficientInline(formatAmount(total), asset)}</p>}
          {errors.amount && <p className="field__error">{errors.amount}</p>}
          {errors.token && <p className="field__error">{errors.token}</p>}
        </div>
      </div>

      <dl className="fee-lines">
        <div>
          <dt>Fee (1%)</dt>
          <dd>
            {formatAmount(fee)} {asset ?? ''}
          </dd>
        </div>
        <div className="fee-lines__total">
          <dt>Total</dt>
          <dd>
            {formatAmount(total)} {asset ?? ''}
          </dd>
        </div>
      </dl>

      <SubmitMessages submit={submit} />

      <Button type="submit" className="button--block" loading={submit.busy} loadingText="Submitting..." disabled={!permitted}>
        {permitted ? label : 'Not Permitted'}
      </Button>
    </form>
  );
}

const ADD_ONE = 'Please add one.';

/** The spec's "… Please add one." with its last words a link to where one is added. */
function AddOne({ text }: { text: string }) {
  if (!text.endsWith(ADD_ONE)) return <>{text}</>;
  return (
    <>
      {text.slice(0, -ADD_ONE.length)}
      <Link to="/dashboard/settings" state={{ activeTab: 'paymentMethods' }}>
        {ADD_ONE}
      </Link>
    </>
  );
}
