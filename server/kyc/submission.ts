import type { FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import { checkUpload } from '../blobs/sniff.js';
import { HttpError, badRequest } from '../errors.js';
import { hasUnstorableText, UNSTORABLE_MESSAGE } from '../plugins/security.js';

/** Spec 001 section 5, "KYC step 2": the accepted types; the 10 MB the client hints is enforced here. */
export const KYC_EXTENSIONS = ['pdf', 'jpeg', 'jpg', 'png'] as const;
export const KYC_MAX_FILE_BYTES = 10 * 1024 * 1024;
export const KYC_MESSAGES = {
  missingDocuments: 'Required documents are missing.',
  unreadable: 'Could not process submission.',
  tooLarge: (name: string) => `File "${name}" is too large. Maximum size is 10MB.`,
  format: (ext: string) => `Format not supported: .${ext.toUpperCase() || '?'}. Supported formats: PDF, JPEG, JPG, PNG.`,
  content: (name: string) => `File "${name}" is not a valid PDF, JPEG or PNG file.`,
  tooManyParts: 'Only basicDetails, identityDoc and residenceDoc can be sent.',
} as const;

const DETAIL_FIELDS = [
  ['firstName', 'First Name', 100],
  ['lastName', 'Last Name', 100],
  ['dob', 'Date of Birth', 10],
  ['country', 'Country', 100],
  ['city', 'City', 100],
  ['postalCode', 'Postal Code', 20],
  ['fullAddress', 'Full Address', 500],
] as const;

export type BasicDetails = Record<(typeof DETAIL_FIELDS)[number][0], string>;

export interface UploadedFile {
  fileName: string;
  data: Buffer;
  contentType: string;
}

export interface KycSubmission {
  details: BasicDetails;
  identityDoc: UploadedFile;
  residenceDoc: UploadedFile;
}

/** The seven step-1 fields, trimmed; every one required, dob a real past date (YYYY-MM-DD). */
export function parseBasicDetails(text: string | undefined): BasicDetails {
  if (text === undefined) throw badRequest('Basic details are missing.');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw badRequest(KYC_MESSAGES.unreadable);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw badRequest(KYC_MESSAGES.unreadable);
  // A multipart field escapes the JSON bodies' check; its JSON may spell out a NUL or a lone surrogate.
  if (hasUnstorableText(raw)) throw badRequest(UNSTORABLE_MESSAGE);
  const details = {} as BasicDetails;
  const missing: string[] = [];
  for (const [key, label, max] of DETAIL_FIELDS) {
    const value = (raw as Record<string, unknown>)[key];
    const trimmed = typeof value === 'string' ? value.trim() : '';
    if (!trimmed) missing.push(label);
    else if (trimmed.length > max) throw badRequest(`${label} is too long (at most ${max} characters).`);
    details[key] = trimmed;
  }
  if (missing.length > 0) throw badRequest(`This field is required: ${missing.join(', ')}.`);
  const dob = /^(\d{4})-(\d{2})-(\d{2})$/.exec(details.dob);
  const date = dob ? new Date(Date.UTC(Number(dob[1]), Number(dob[2]) - 1, Number(dob[3]))) : null;
  if (!date || date.toISOString().slice(0, 10) !== details.dob || date.getTime() > Date.now() || Number(dob![1]) < 1900) {
    throw badRequest('Date of Birth must be a valid past date.');
  }
  return details;
}

/**
 * Reads the multipart body: one basicDetails field and the two documents. Each file is cut off
 * at 10 MB by the parser (413), and must be a PDF, JPEG or PNG by its bytes, whatever its name says.
 */
export async function readSubmission(request: FastifyRequest): Promise<KycSubmission> {
  let basicDetails: string | undefined;
  const files: Partial<Record<'identityDoc' | 'residenceDoc', UploadedFile>> = {};
  let current = '';
  try {
    for await (const part of request.parts() as AsyncIterableIterator<Multipart>) {
      current = part.type === 'file' ? part.filename : part.fieldname;
      if (part.type === 'field') {
        if (part.fieldname !== 'basicDetails') throw badRequest(KYC_MESSAGES.tooManyParts);
        basicDetails = String(part.value);
        continue;
      }
      if ((part.fieldname !== 'identityDoc' && part.fieldname !== 'residenceDoc') || files[part.fieldname]) {
        part.file.resume();
        throw badRequest(KYC_MESSAGES.tooManyParts);
      }
      const data = await part.toBuffer();
      if (data.byteLength === 0) continue; // an empty file input counts as no document
      if (hasUnstorableText(part.filename)) throw badRequest(UNSTORABLE_MESSAGE);
      files[part.fieldname] = { fileName: part.filename, data, contentType: part.mimetype };
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, KYC_MESSAGES.tooLarge(current));
    if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT')
      throw new HttpError(413, KYC_MESSAGES.tooManyParts);
    throw badRequest(KYC_MESSAGES.unreadable);
  }
  const details = parseBasicDetails(basicDetails);
  if (!files.identityDoc || !files.residenceDoc) throw badRequest(KYC_MESSAGES.missingDocuments);
  for (const file of [files.identityDoc, files.residenceDoc]) {
    const checked = await checkUpload(file.fileName, file.data, KYC_EXTENSIONS);
    if (!checked.ok)
      throw badRequest(checked.reason === 'extension' ? KYC_MESSAGES.format(checked.ext) : KYC_MESSAGES.content(file.fileName));
    file.contentType = checked.mime;
  }
  return { details, identityDoc: files.identityDoc, residenceDoc: files.residenceDoc };
}
