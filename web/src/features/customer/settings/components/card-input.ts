/** 'MM/YY' as the customer types: digits only, the slash put in after the month, 5 characters at most. */
export function formatExpiryInput(text: string): string {
  const digits = text.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

/** A CVV: digits only, 4 at most. */
export function formatCvvInput(text: string): string {
  return text.replace(/\D/g, '').slice(0, 4);
}

/** A card number: digits and the spaces people type between groups, 23 characters at most. */
export function formatCardNumberInput(text: string): string {
  return text.replace(/[^\d ]/g, '').slice(0, 23);
}
