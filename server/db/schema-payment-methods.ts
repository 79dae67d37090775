import type { ColumnType } from 'kysely';

/** A saved payment method as shown: never a full card number, CVV or account number. */
export interface UserPaymentMethodsRawTable {
  id: string;
  user_id: string;
  type: 'credit_card' | 'bank_account';
  card_brand: string | null;
  last4: string | null;
  expiry_date: string | null;
  card_holder_name: string | null;
  bank_name: string | null;
  bank_last4: string | null;
  notes: string | null;
  created_at: ColumnType<Date, Date | string, Date | string>;
}

/** A bank account's full number, sealed with AES-256-GCM (server/secrets.ts); kept out of the event log. */
export interface PaymentMethodSecretsTable {
  payment_method_id: string;
  account_number_encrypted: string;
}

export interface PaymentMethodTables {
  user_payment_methods_raw: UserPaymentMethodsRawTable;
  payment_method_secrets: PaymentMethodSecretsTable;
}
