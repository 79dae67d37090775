import { useState } from 'react';
import { Banner } from '@/components/banner.js';
import { Button } from '@/components/button.js';
import { SkeletonRows } from '@/components/skeleton-rows.js';
import { deletePaymentMethod, describePaymentMethod, type PaymentMethod } from '@/features/customer/shared/api/payment-methods.js';
import { customerIcons } from '@/features/customer/shared/components/icons.js';
import { usePaymentMethods } from '@/features/customer/shared/api/payment-methods.js';
import { AddPaymentMethodModal } from './add-payment-method-modal.js';
import { DeletePaymentMethodModal } from './delete-payment-method-modal.js';

export const DELETE_FAILED = 'Failed to delete payment method.';

function MethodItem({ method, onDelete }: { method: PaymentMethod; onDelete: () => void }) {
  const name = describePaymentMethod(method);
  const isCard = method.type === 'credit_card';
  return (
    <li className="method-item">
      <span className="method-item__icon">{isCard ? customerIcons.card : customerIcons.bank}</span>
      <div className="method-item__main">
        <p className="method-item__name">{name}</p>
        <p className="muted method-item__meta">
          {isCard
            ? ['Credit card', method.expiry_date ? `Expires ${method.expiry_date}` : null, method.card_holder_name]
                .filter(Boolean)
                .join(' · ')
            : 'Bank account'}
        </p>
        {method.notes && <p className="muted method-item__notes">{method.notes}</p>}
      </div>
      <button type="button" className="icon-button method-item__delete" aria-label={`Delete ${name}`} onClick={onDelete}>
        {customerIcons.trash}
      </button>
    </li>
  );
}

/** Settings > Payment Methods: the list, 'Add New' and delete with a confirmation. */
export function PaymentMethodsTab() {
  const { methods, loading, error, reload } = usePaymentMethods();
  const [adding, setAdding] = useState(false);
  const [toDelete, setToDelete] = useState<PaymentMethod | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const confirmDelete = async () => {
    if (!toDelete) return;
    setDeleting(true);
    setDeleteError(null);
    try {
      await deletePaymentMethod(toDelete.id);
      setToDelete(null);
      reload();
    } catch {
      setDeleteError(DELETE_FAILED);
    } finally {
      setDeleting(false);
    }
  };

  return (
    <section aria-labelledby="payment-methods-title">
      <div className="tab-head">
        <h2 id="payment-methods-title" className="tab-head__title">
          Payment Methods
        </h2>
        <Button className="button--with-icon" onClick={() => setAdding(true)}>
          {customerIcons.plus}
          <span>Add New</span>
        </Button>
      </div>
      {loading && methods.length === 0 ? (
        <SkeletonRows rows={2} label="Loading payment methods..." />
      ) : error ? (
        <Banner variant="error">{error}</Banner>
      ) : methods.length === 0 ? (
        <p className="empty-text">No payment methods added yet.</p>
      ) : (
        <ul className="method-list">
          {methods.map((m) => (
            <MethodItem
              key={m.id}
              method={m}
              onDelete={() => {
                setDeleteError(null);
                setToDelete(m);
              }}
            />
          ))}
        </ul>
      )}
      <AddPaymentMethodModal open={adding} onClose={() => setAdding(false)} onAdded={reload} />
      <DeletePaymentMethodModal
        method={toDelete}
        busy={deleting}
        error={deleteError}
        onCancel={() => setToDelete(null)}
        onConfirm={() => void confirmDelete()}
      />
    </section>
  );
}
