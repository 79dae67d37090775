import { useRef, useState, type FormEvent } from 'react';
import { Banner } from '@/components/banner.js';
import { Button } from '@/components/button.js';
import { Field } from '@/components/field.js';
import { ApiError } from '@/lib/api-client.js';
import { cleanAmountInput, formatCrypto, parseAmountInput } from '@/lib/money.js';
import { useSession } from '@/lib/session.js';
import { useFocusFirstError } from '@/lib/use-focus-first-error.js';
import { customerIcons } from '@/features/customer/shared/components/icons.js';
import { SubmitMessages } from '@/components/submit-messages.js';
import { useSubmit } from '@/lib/use-submit.js';
import { requestSend } from '../api/send.js';
import { pasteText } from '../hooks/use-clipboard.js';
import type { Wallet } from '../wallet.js';

/** The success notice stays this long (spec 001 section 9). */
export const SEND_SUCCESS_MS = 3_000;

export const SEND_MESSAGES = {
  amount: 'Please enter a valid positive amount.',
  recipient: 'Please enter a recipient address.',
  context: 'Wallet information or user context is missing.',
  insufficient: 'Insufficient funds, this wallet might not have enough balance to send or pending transactions.',
  paste: 'Could not paste from clipboard.',
  unexpected: 'An unexpected error occurred during send.',
  success: 'Transaction has been successfully sent for approval.',
  disabled: 'Sending is currently disabled for your account.',
} as const;

type SendPanelProps = {
  wallet: Wallet;
  /** False when staff turned sending off; `disabledNote` then explains why. */
  canSend: boolean;
  disabledNote: string | null;
  /** After a send went through: the balances are read again. */
  onSent: () => void;
};

type Errors = { amount?: string; recipient?: string; form?: string };

/** Send: amount, recipient with paste, the section-5 checks, then a send that waits for approval. */
export function SendPanel({ wallet, canSend, disabledNote, onSent }: SendPanelProps) {
  const userId = useSession((s) => s.user?.id ?? null);
  const [amount, setAmount] = useState('');
  const [recipient, setRecipient] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [pasteError, setPasteError] = useState<string | null>(null);
  const submit = useSubmit({ successMs: SEND_SUCCESS_MS });
  const [attempt, setAttempt] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstError(formRef, attempt);

  const validate = (): Errors => {
    if (!userId || !wallet.id) return { form: SEND_MESSAGES.context };
    const value = parseAmountInput(amount);
    const next: Errors = {};
    if (!value || !value.isPositive() || value.isZero()) next.amount = SEND_MESSAGES.amount;
    else if (value.greaterThan(wallet.available)) next.amount = SEND_MESSAGES.insufficient;
    if (!recipient.trim()) next.recipient = SEND_MESSAGES.recipient;
    return next;
  };

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (submit.busy || !canSend) return;
    submit.reset();
    const { form, ...found } = validate();
    setErrors(found);
    if (form) submit.fail(form);
    if (form || Object.keys(found).length > 0) {
      setAttempt((n) => n + 1);
      return;
    }
    await submit.run(
      async () => {
        await requestSend({ assetId: wallet.id, amount: parseAmountInput(amount)!.toFixed(), recipientAddress: recipient.trim() });
        setAmount('');
        setRecipient('');
        onSent();
        return SEND_MESSAGES.success;
      },
      (error) => (error instanceof ApiError && error.status !== null ? error.message : SEND_MESSAGES.unexpected),
    );
  };

  const paste = async () => {
    const text = await pasteText();
    if (text === null) {
      setPasteError(SEND_MESSAGES.paste);
      return;
    }
    setPasteError(null);
    setRecipient(text.trim());
    setErrors((e) => ({ ...e, recipient: undefined }));
  };

  return (
    <form ref={formRef} className="send-form" onSubmit={(e) => void send(e)} noValidate>
      {!canSend && <Banner variant="info">{disabledNote || SEND_MESSAGES.disabled}</Banner>}
      <Field
        label={`Amount (${wallet.id})`}
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        placeholder="0.00"
        value={amount}
        onChange={(e) => {
          setAmount(cleanAmountInput(e.target.value));
          setErrors((x) => ({ ...x, amount: undefined }));
        }}
        error={errors.amount}
        hint={`Balance: ${formatCrypto(wallet.balance)} ${wallet.id}`}
        disabled={!canSend}
      />
      <div className="field-with-action">
        <Field
          label="Recipient Address"
          name="recipient"
          autoComplete="off"
          spellCheck={false}
          placeholder={`${wallet.name} address`}
          value={recipient}
          onChange={(e) => {
            setRecipient(e.target.value);
            setErrors((x) => ({ ...x, recipient: undefined }));
          }}
          error={errors.recipient ?? pasteError}
          disabled={!canSend}
        />
        <Button
          variant="secondary"
          className="field-with-action__button button--with-icon"
          onClick={() => void paste()}
          disabled={!canSend}
          aria-label="Paste address from clipboard"
        >
          {customerIcons.paste}
          <span>Paste</span>
        </Button>
      </div>
      <SubmitMessages submit={submit} />
      <Button type="submit" className="button--block" loading={submit.busy} loadingText="Sending..." disabled={!canSend}>
        Send {wallet.id}
      </Button>
    </form>
  );
}
