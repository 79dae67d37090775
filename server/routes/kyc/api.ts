import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Bytes } from '../../../ledger/contract/common.js';
import { KycDocumentQuery } from '../../../ledger/contract/kyc.js';
import { forbidden, notFound } from '../../errors.js';
import { assertCanManageUser } from '../../shared/access.js';
import { DocumentLinks } from '../../kyc/document-links.js';

export const autoPrefix = '/api/v1';

/** The document route, under /api/v1; signed links (./functions.ts, get-kyc-details) point here. */
export const KYC_DOCUMENT_PATH = '/kyc-documents';

/** A KYC document opened through its signed link, by staff who may still manage the customer. */
const kycDocuments: FastifyPluginAsyncZod = async (app) => {
  const { accounts } = app.authServices;
  const { blobs } = app;
  const db = accounts.db;
  const links = new DocumentLinks(app.authServices.dataKey);
  // Opened in a new tab, so the link itself is the credential; each opening is recorded.
  app.get(
    KYC_DOCUMENT_PATH,
    {
      config: { rateLimit: { max: 60, timeWindow: '1 minute' }, auth: 'public' },
      schema: {
        tags: ['api'],
        response: { 200: Bytes('the document: PDF, PNG or JPEG') },
        querystring: KycDocumentQuery,
      },
    },
    async (request, reply) => {
      const grant = links.open(request.query.token);
      if (!grant) throw forbidden('This document link is invalid or has expired.');
      // Access may have been withdrawn since the link was made: check it again with today's role.
      const actor = await accounts.findById(grant.actorId);
      if (!actor) throw forbidden('This document link is invalid or has expired.');
      await assertCanManageUser(db, { userId: actor.id, role: actor.role }, grant.userId);
      const blob = await blobs.get(grant.blobId);
      if (!blob) throw notFound('Document not found.');
      await accounts.record(
        grant.userId,
        { type: 'RecordKycDocumentView', document: grant.document, blobId: grant.blobId },
        { id: actor.id, role: actor.role },
        { ip: request.ip ?? null },
      );
      return reply
        .header('content-type', blob.contentType)
        .header('content-length', blob.size)
        .header('content-disposition', `inline; filename="${grant.document}-document.${extensionOf(blob.contentType)}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(blob.data);
    },
  );
};

export default kycDocuments;

function extensionOf(contentType: string): string {
  return contentType === 'application/pdf' ? 'pdf' : contentType === 'image/png' ? 'png' : 'jpg';
}
