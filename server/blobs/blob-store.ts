import { createHash, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { HttpError } from '../errors.js';
import { DatabaseThrottleStore, type ThrottleStore } from '../auth/throttle.js';

/** Uploads one customer may make a minute (attachments and KYC documents together). */
export const UPLOADS_PER_MINUTE = 20;
export const UPLOAD_TEXT = {
  quota: (mb: number) =>
    `Upload refused: your files would exceed your storage limit of ${mb} MB. Remove files you no longer need and try again.`,
  rate: 'Too many uploads. Please wait a minute and try again.',
} as const;

export interface UploadLimits {
  /** What one owner's blobs may take in all (UPLOAD_QUOTA_MB). */
  quotaMb: number;
  uploadsPerMinute?: number;
  /** The rate counters; default the database's. */
  store?: ThrottleStore;
}

export interface StoredBlob {
  blobId: string;
  contentType: string;
  size: number;
  sha256: string;
}

/**
 * Uploaded files (KYC documents, ticket attachments, buying-link logos), kept in the database
 * so that they survive restarts, travel with backups and work the same on PGlite and
 * PostgreSQL. Events refer to a blob by id and SHA-256; the bytes never enter the event log.
 */
export class BlobStore {
  private readonly quotaBytes: number;
  private readonly uploadsPerMinute: number;
  private readonly store: ThrottleStore;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly limits: UploadLimits = { quotaMb: 100 },
  ) {
    this.quotaBytes = Math.floor(limits.quotaMb * 1024 * 1024);
    this.uploadsPerMinute = limits.uploadsPerMinute ?? UPLOADS_PER_MINUTE;
    this.store = limits.store ?? new DatabaseThrottleStore(db);
  }

  /**
   * Stores a file. With `owner` (a customer's own upload) it counts against their quota and
   * rate: past either it is refused (413, 429) and nothing is stored. The owner's total is
   * read and the row written in one transaction that holds a lock on the owner, so parallel
   * uploads cannot pass the quota together.
   */
  async put(data: Uint8Array, contentType: string, owner?: string): Promise<StoredBlob> {
    const blobId = randomUUID();
    const sha256 = createHash('sha256').update(data).digest('hex');
    const row = { id: blobId, content_type: contentType, size: data.byteLength, sha256, data, owner_id: owner ?? null };
    if (!owner) {
      await this.db.insertInto('blobs').values(row).execute();
    } else {
      if ((await this.store.increment(`uploads:${owner}`, 60_000)) > this.uploadsPerMinute) throw new HttpError(429, UPLOAD_TEXT.rate);
      await this.db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtext(${`blobs:${owner}`}))`.execute(trx);
        const used = await trx
          .selectFrom('blobs')
          .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('size'), sql<string>`0`).as('n'))
          .where('owner_id', '=', owner)
          .executeTakeFirstOrThrow();
        if (Number(used.n) + data.byteLength > this.quotaBytes) throw new HttpError(413, UPLOAD_TEXT.quota(this.limits.quotaMb));
        await trx.insertInto('blobs').values(row).execute();
      });
    }
    return { blobId, contentType, size: data.byteLength, sha256 };
  }

  async get(blobId: string): Promise<(StoredBlob & { data: Buffer }) | null> {
    const row = await this.db.selectFrom('blobs').selectAll().where('id', '=', blobId).executeTakeFirst();
    if (!row) return null;
    return { blobId: row.id, contentType: row.content_type, size: row.size, sha256: row.sha256, data: Buffer.from(row.data) };
  }

  async delete(blobId: string): Promise<boolean> {
    const result = await this.db.deleteFrom('blobs').where('id', '=', blobId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
