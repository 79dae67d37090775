import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { TargetUserBody } from '../../../ledger/contract/common.js';
import { KycDetails, KycStatusAnswer } from '../../../ledger/contract/kyc.js';
import fastifyMultipart from '@fastify/multipart';
import { authOf, type AuthInfo } from '../../auth/guard.js';
import type { StoredBlob } from '../../blobs/blob-store.js';
import { forbidden, notFound, HttpError } from '../../errors.js';
import { assertCanManageUser, onlyFor } from '../../shared/access.js';
import type { DocumentRef } from '../../../ledger/user/events.js';
import type { DocumentRefRow } from '../../db/schema.js';
import { DocumentLinks, type KycDocument } from '../../kyc/document-links.js';
import { KYC_MAX_FILE_BYTES, readSubmission, type UploadedFile } from '../../kyc/submission.js';
import { clipText } from '../../plugins/security.js';
import { KYC_DOCUMENT_PATH } from './api.js';
import { kycProfileOf, kycStatusOf } from './queries.js';

export const autoPrefix = '/functions/v1';

const ONLY_CUSTOMERS_SUBMIT = 'Only customers submit identity verification.';

/**
 * KYC (spec 001 "KYC", spec 002 "Verification & Docs"): the customer submits details and two
 * documents; staff who may manage the customer read them through short-lived signed links
 * (each opening recorded, ./api.ts) and approve. Every change is a user event naming its actor.
 */
const kycFunctions: FastifyPluginAsyncZod = async (app) => {
  const { accounts } = app.authServices;
  const { blobs } = app;
  const db = accounts.db;
  const links = new DocumentLinks(app.authServices.dataKey);

  async function store(file: UploadedFile, owner: string): Promise<{ ref: DocumentRef; blob: StoredBlob }> {
    const blob = await blobs.put(file.data, file.contentType, owner);
    return {
      blob,
      ref: {
        blobId: blob.blobId,
        fileName: clipText(file.fileName, 255),
        contentType: blob.contentType,
        size: blob.size,
        sha256: blob.sha256,
      },
    };
  }

  // Scoped to these routes, so that another area may register the parser with its own limits.
  if (!app.hasRequestDecorator('parts')) {
    await app.register(fastifyMultipart, {
      limits: { fileSize: KYC_MAX_FILE_BYTES, files: 2, fields: 1, fieldSize: 16 * 1024, parts: 3 },
    });
  }

  app.post(
    '/submit-kyc-data',
    {
      // Per account (the bearer), so customers behind one address do not share a budget.
      config: {
        rateLimit: {
          max: 10,
          timeWindow: '1 minute',
          keyGenerator: (req: FastifyRequest) => req.headers.authorization ?? req.ip ?? 'unknown',
        },
        // The customer's own call, where the folder's rule (./autohooks.ts) is staff's.
        ...onlyFor(['USER'], ONLY_CUSTOMERS_SUBMIT),
      },
      schema: { tags: ['functions'], response: { 200: KycStatusAnswer }, consumes: ['multipart/form-data'] },
    },
    async (request) => {
      const caller = authOf(request);
      if (caller.role !== 'USER') throw forbidden(ONLY_CUSTOMERS_SUBMIT);
      const profile = await kycStatusOf(db, caller.userId);
      if (profile?.kyc_status === 'pending') throw new HttpError(409, 'Your verification is already under review.');
      if (profile?.kyc_status === 'verified') throw new HttpError(409, 'Your identity is already verified.');
      const submission = await readSubmission(request);
      const identity = await store(submission.identityDoc, caller.userId);
      let residence: Awaited<ReturnType<typeof store>>;
      try {
        residence = await store(submission.residenceDoc, caller.userId);
      } catch (error) {
        // Over the quota or rate with the second file: keep neither.
        await blobs.delete(identity.blob.blobId);
        throw error;
      }
      try {
        await accounts.record(
          caller.userId,
          { type: 'SubmitKyc', details: submission.details, identityDoc: identity.ref, residenceDoc: residence.ref },
          { id: caller.userId, role: caller.role },
          { ip: request.ip ?? null },
        );
      } catch (error) {
        // Refused (e.g. a second submission raced this one): keep no orphaned files.
        await blobs.delete(identity.blob.blobId);
        await blobs.delete(residence.blob.blobId);
        throw error;
      }
      return { success: true, kyc_status: 'pending' };
    },
  );

  /** The customer whose verification a staff member handles: within their reach, and a customer (404 for anyone else). */
  const customerOfStaff = async (staff: AuthInfo, targetUserId: string) => {
    await assertCanManageUser(db, staff, targetUserId);
    const user = await accounts.findById(targetUserId);
    if (!user || user.role !== 'USER') throw notFound('User not found.');
    return user;
  };

  app.post(
    '/approve-kyc',
    { schema: { tags: ['functions'], response: { 200: KycStatusAnswer }, body: TargetUserBody } },
    async (request) => {
      const staff = authOf(request);
      const { targetUserId } = request.body;
      await customerOfStaff(staff, targetUserId);
      await accounts.record(targetUserId, { type: 'ApproveKyc' }, { id: staff.userId, role: staff.role });
      return { success: true, kyc_status: 'verified' };
    },
  );

  app.post(
    '/get-kyc-details',
    { schema: { tags: ['functions'], response: { 200: KycDetails }, body: TargetUserBody } },
    async (request) => {
      const staff = authOf(request);
      const { targetUserId } = request.body;
      await customerOfStaff(staff, targetUserId);
      const p = await kycProfileOf(db, targetUserId);
      const linkTo = (document: KycDocument, ref: DocumentRefRow | null | undefined) =>
        ref
          ? `/api/v1${KYC_DOCUMENT_PATH}?token=${links.token({ userId: targetUserId, document, blobId: ref.blobId, actorId: staff.userId, actorRole: staff.role })}`
          : null;
      return {
        kyc_status: p?.kyc_status ?? 'not_started',
        first_name: p?.first_name ?? null,
        last_name: p?.last_name ?? null,
        dob: p?.dob ?? null,
        country: p?.country ?? null,
        city: p?.city ?? null,
        postal_code: p?.postal_code ?? null,
        full_address: p?.full_address ?? null,
        kyc_submitted_at: p?.kyc_submitted_at ? new Date(p.kyc_submitted_at).toISOString() : null,
        identity_doc_path: p?.identity_doc?.fileName ?? null,
        residence_doc_path: p?.residence_doc?.fileName ?? null,
        identityDocSignedUrl: linkTo('identity', p?.identity_doc),
        residenceDocSignedUrl: linkTo('residence', p?.residence_doc),
      };
    },
  );
};

export default kycFunctions;
