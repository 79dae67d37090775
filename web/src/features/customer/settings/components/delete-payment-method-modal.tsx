import { Button } from '@/components/button.js';
import { Modal } from '@/components/modal.js';
import { describePaymentMethod, type PaymentMethod } from '@/features/customer/shared/api/payment-methods.js';

type DeletePaymentMethodModalProps = {
  method: PaymentMethod | null;
  busy: boolean;
  error: string | null;
  onCancel: () => void;
  onConfirm: () => void;
};

export function DeletePaymentMethodModal({ method, busy, error, onCancel, onConfirm }: DeletePaymentMethodModalProps) {
  return (
    <Modal
      open={method !== null}
      onClose={() => !busy && onCancel()}
      title="Delete Payment Method"
      size="small"
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button variant="danger" onClick={onConfirm} loading={busy} loadingText="Deleting...">
            Delete
          </Button>
        </>
      }
    >
      {method && (
        <p>
          Are you sure you want to delete <strong>{describePaymentMethod(method)}</strong>? This cannot be undone.
        </p>
      )}
      {error && (
        <p className="inline-error" role="alert">
          {error}
        </p>
      )}
    </Modal>
  );
}
