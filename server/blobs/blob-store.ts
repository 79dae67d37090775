import { createHash, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

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
  constructor(private readonly db: Kysely<DB>) {}

  async put(data: Uint8Array, contentType: string): Promise<StoredBlob> {
    const blobId = randomUUID();
    const sha256 = createHash('sha256').update(data).digest('hex');
    await this.db.insertInto('blobs').values({ id: blobId, content_type: contentType, size: data.byteLength, sha256, data }).execute();
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
