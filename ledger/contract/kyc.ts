import { z } from 'zod';
import { Timestamp } from './common.js';

/* KYC (spec 001 section 11, spec 002's KYC tab): a submission, staff approval, and what staff see of it. */

export const KycStatusAnswer = z.object({
  success: z.boolean(),
  kyc_status: z.string().meta({ description: 'pending after a submission, verified after approval' }),
});

/** The personal details of a KYC submission, as the profile and the KYC tab show them. */
export const KycPersonalDetails = z.object({
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  dob: Timestamp.nullable(),
  country: z.string().nullable(),
  city: z.string().nullable(),
  postal_code: z.string().nullable(),
  full_address: z.string().nullable(),
  kyc_status: z.string(),
});

/** The submitted details and short-lived links to the two documents (each opening is recorded). */
export const KycDetails = KycPersonalDetails.extend({
  kyc_submitted_at: z.string().nullable(),
  identity_doc_path: z.string().nullable(),
  residence_doc_path: z.string().nullable(),
  identityDocSignedUrl: z.string().nullable(),
  residenceDocSignedUrl: z.string().nullable(),
});

/** GET /api/v1/kyc-documents: the signed, short-lived link a staff member's page was given. */
export const KycDocumentQuery = z.object({ token: z.string().max(2000) });
