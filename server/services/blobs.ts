import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { BlobStore } from '../blobs/blob-store.js';
import type { ServiceOptions } from '../app.js';

/** `app.blobs`: uploaded files (KYC documents, attachments, logos) in the database. */
export default fp(
  async (app: FastifyInstance, { config }: ServiceOptions) => {
    app.decorate('blobs', new BlobStore(app.ledger.database.db, { quotaMb: config.UPLOAD_QUOTA_MB }));
  },
  { name: 'blobs' },
);
