import { useState, type FormEvent } from 'react';
import { Banner } from '@/components/banner.js';
import { Button } from '@/components/button.js';
import { Field } from '@/components/field.js';
import { Modal } from '@/components/modal.js';
import { Tabs } from '@/components/tabs.js';
import { ApiError } from '@/lib/api-client.js';
import { useSubmit } from '@/lib/use-submit.js';
import { addPaymentMethod, type NewBankAccount, type NewCard } from '@/features/customer/shared/api/payment-methods.js';
import { formatCardNumberInput, formatCvvInput, formatExpiryInput } from './card-input.js';

export const ADD_METHOD_MESSAGES = {
  required: 'Please fill in all required fields',
  unexpected: 'An unexpected error occurred.',
} as const;

type MethodTab = 'card' | 'bank';

const emptyCard = { cardNumber: '', cardHolderName: '', expiryDate: '', cvv: '', notes: '' };
const emptyBank = { bankName: '', accountNumber: '', notes: '' };

type AddPaymentMethodModalProps = { open: boolean; onClose: () => void; onAdded: () => void };

/** 'Add New': a credit card or a bank account (spec 001 sections 3 and 5). */
export function AddPaymentMethodModal({ open, onClose, onAdded }: AddPaymentMethodModalProps) {
  const [tab, setTab] = useState<MethodTab>('card');
  const [card, setCard] = useState(emptyCard);
  const [bank, setBank] = useState(emptyBank);
  const saving = useSubmit();
  const busy = saving.busy;

  // Any edit clears the last error: it spoke of what was there before.
  const editCard = (change: Partial<typeof emptyCard>) => {
    setCard((c) => ({ ...c, ...change }));
    saving.reset();
  };
  const editBank = (change: Partial<typeof emptyBank>) => {
    setBank((b) => ({ ...b, ...change }));
    saving.reset();
  };

  /** Back to an empty card form, as the dialog first opens. */
  const reset = () => {
    setCard(emptyCard);
    setBank(emptyBank);
    saving.reset();
    setTab('card');
  };

  const close = () => {
    if (busy) return;
    reset();
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    let payload: NewCard | NewBankAccount;
    if (tab === 'card') {
      if (!card.cardNumber.trim() || !card.cardHolderName.trim() || !card.expiryDate.trim() || !card.cvv.trim()) {
        saving.fail(ADD_METHOD_MESSAGES.required);
        return;
      }
      payload = {
        type: 'credit_card',
        cardNumber: card.cardNumber.trim(),
        cardHolderName: card.cardHolderName.trim(),
        expiryDate: card.expiryDate,
        cvv: card.cvv,
        ...(card.notes.trim() ? { notes: card.notes.trim() } : {}),
      };
    } else {
      if (!bank.bankName.trim() || !bank.accountNumber.trim()) {
        saving.fail(ADD_METHOD_MESSAGES.required);
        return;
      }
      payload = {
        type: 'bank_account',
        bank_name: bank.bankName.trim(),
        account_number: bank.accountNumber.trim(),
        ...(bank.notes.trim() ? { notes: bank.notes.trim() } : {}),
      };
    }
    const added = await saving.run(
      async () => void (await addPaymentMethod(payload)),
      (e) => (e instanceof ApiError && e.status !== null && e.status < 500 ? e.message : ADD_METHOD_MESSAGES.unexpected),
    );
    if (!added) return;
    reset();
    onAdded();
    onClose();
  };

  const formId = 'add-payment-method-form';

  return (
    <Modal
      open={open}
      onClose={close}
      title="Add Payment Method"
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={busy} loadingText="Saving...">
            {tab === 'card' ? 'Add Card' : 'Add Bank Account'}
          </Button>
        </>
      }
    >
      <Tabs
        label="Payment method type"
        tabs={[
          { key: 'card', label: 'Credit Card' },
          { key: 'bank', label: 'Bank Account' },
        ]}
        selected={tab}
        onSelect={(next) => {
          setTab(next);
          saving.reset();
        }}
      >
        <form id={formId} onSubmit={(e) => void submit(e)} noValidate>
          {tab === 'card' ? (
            <>
              <Field
                label="Card Number"
                name="cardNumber"
                inputMode="numeric"
                autoComplete="cc-number"
                placeholder="1234 5678 9012 3456"
                value={card.cardNumber}
                onChange={(e) => editCard({ cardNumber: formatCardNumberInput(e.target.value) })}
                maxLength={23}
                required
              />
              <Field
                label="Card Holder Name"
                name="cardHolderName"
                autoComplete="cc-name"
                placeholder="Name as on the card"
                value={card.cardHolderName}
                onChange={(e) => editCard({ cardHolderName: e.target.value })}
                maxLength={100}
                required
              />
              <div className="field-pair">
                <Field
                  label="Expiry Date"
                  name="expiryDate"
                  inputMode="numeric"
                  autoComplete="cc-exp"
                  placeholder="MM/YY"
                  value={card.expiryDate}
                  onChange={(e) => editCard({ expiryDate: formatExpiryInput(e.target.value) })}
                  maxLength={5}
                  required
                />
                <Field
                  label="CVV"
                  name="cvv"
                  inputMode="numeric"
                  autoComplete="cc-csc"
                  placeholder="123"
                  value={card.cvv}
                  onChange={(e) => editCard({ cvv: formatCvvInput(e.target.value) })}
                  maxLength={4}
                  required
                />
              </div>
              <Field
                label="Notes (optional)"
                name="notes"
                value={card.notes}
                onChange={(e) => editCard({ notes: e.target.value })}
                maxLength={500}
              />
              <p className="field__hint add-method__hint">Your card details are stored encrypted. The CVV is checked and never kept.</p>
            </>
          ) : (
            <>
              <Field
                label="Bank Name"
                name="bankName"
                autoComplete="off"
                value={bank.bankName}
                onChange={(e) => editBank({ bankName: e.target.value })}
                maxLength={100}
                required
              />
              <Field
                label="Account Number"
                name="accountNumber"
                autoComplete="off"
                placeholder="Account number or IBAN"
                value={bank.accountNumber}
                onChange={(e) => editBank({ accountNumber: e.target.value })}
                maxLength={42}
                required
              />
              <Field
                label="Notes (optional)"
                name="notes"
                value={bank.notes}
                onChange={(e) => editBank({ notes: e.target.value })}
                maxLength={500}
              />
            </>
          )}
          {saving.error && <Banner variant="error">{saving.error}</Banner>}
        </form>
      </Tabs>
    </Modal>
  );
}
