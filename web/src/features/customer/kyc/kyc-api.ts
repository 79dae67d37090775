import { ApiError, http, toApiError } from '@/lib/api-client.js';

/** Step 1 of the verification modal (spec 001 section 3, "KYC submission"). */
export type BasicDetails = {
  firstName: string;
  lastName: string;
  dob: string;
  country: string;
  city: string;
  postalCode: string;
  fullAddress: string;
};

export const KYC_MESSAGES = {
  required: 'This field is required',
  identityRequired: 'Identity document is required',
  residenceRequired: 'Proof of residence document is required',
  documentsMissing: 'Required documents are missing.',
  failed: 'Failed to submit KYC data.',
  unprocessable: 'Could not process submission.',
  unexpected: 'An unexpected error occurred during submission.',
} as const;

/** What the file inputs accept; the server checks the content, not the name. */
export const KYC_ACCEPT = '.pdf,.jpeg,.jpg,.png';

/** POST submit-kyc-data as multipart: basicDetails (JSON text), identityDoc, residenceDoc. */
export async function submitKyc(details: BasicDetails, identityDoc: File, residenceDoc: File): Promise<void> {
  const form = new FormData();
  form.append('basicDetails', JSON.stringify(details));
  form.append('identityDoc', identityDoc, identityDoc.name);
  form.append('residenceDoc', residenceDoc, residenceDoc.name);
  try {
    // Uploads of up to 2 × 10 MB get more time than an ordinary call.
    await http.post('functions/v1/submit-kyc-data', { body: form, timeout: 120_000 });
  } catch (error) {
    throw await toApiError(error);
  }
}

/** The server's error text when it gave one; otherwise the spec's fallbacks. */
export function submissionMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === null) return KYC_MESSAGES.unexpected;
    const body = error.body;
    if (body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string')
      return (body as { error: string }).error;
    return KYC_MESSAGES.failed;
  }
  return KYC_MESSAGES.unexpected;
}
