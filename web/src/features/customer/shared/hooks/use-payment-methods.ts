import { useCallback, useEffect, useState } from 'react';
import { fetchPaymentMethods, type PaymentMethod } from '../api/payment-methods.js';

export const LOAD_METHODS_ERROR = 'Failed to load payment methods.';

export type PaymentMethodsState = { methods: PaymentMethod[]; loading: boolean; error: string | null; reload: () => void };

/** The customer's saved payment methods, newest first. */
export function usePaymentMethods(): PaymentMethodsState {
  const [methods, setMethods] = useState<PaymentMethod[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    fetchPaymentMethods(controller.signal)
      .then((list) => {
        setMethods(list);
        setError(null);
      })
      .catch(() => {
        if (!controller.signal.aborted) setError(LOAD_METHODS_ERROR);
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { methods, loading, error, reload };
}
