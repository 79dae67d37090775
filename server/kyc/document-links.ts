import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a link to a KYC document opens it. */
export const DOCUMENT_LINK_TTL_MS = 5 * 60_000;

export type KycDocument = 'identity' | 'residence';

/** What a signed link grants: one document of one customer, to the staff member who asked for it, until `exp`. */
export interface DocumentGrant {
  userId: string;
  document: KycDocument;
  blobId: string;
  actorId: string;
  actorRole: string;
  /** Expiry, milliseconds since the epoch. */
  exp: number;
}

/**
 * Short-lived links to KYC documents: the grant travels in the link itself, HMAC-signed with a
 * key derived from the data key, so a link cannot be widened, extended or moved to another file.
 */
export class DocumentLinks {
  private readonly key: Buffer;

  constructor(dataKey: Buffer) {
    this.key = createHmac('sha256', dataKey).update('kyc-document-links').digest();
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }

  token(grant: Omit<DocumentGrant, 'exp'>, now = Date.now()): string {
    const payload = Buffer.from(JSON.stringify({ ...grant, exp: now + DOCUMENT_LINK_TTL_MS })).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /** The grant of a genuine, unexpired link; null otherwise. */
  open(token: string, now = Date.now()): DocumentGrant | null {
    const [payload, signature, ...rest] = token.split('.');
    if (!payload || !signature || rest.length > 0) return null;
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    try {
      const grant = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as DocumentGrant;
      if (typeof grant.exp !== 'number' || grant.exp < now) return null;
      if (grant.document !== 'identity' && grant.document !== 'residence') return null;
      return grant;
    } catch {
      return null;
    }
  }
}
