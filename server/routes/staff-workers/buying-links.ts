import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BuyingLinkAdded, BuyingLinks, Done, LINK_MESSAGES, LOGO_MAX_BYTES, LogoFile } from '../../../ledger/contract/staff-users.js';
import {
  AddBuyingLinkBody,
  BuyingLinkParams,
  BuyingLinksQuery,
  RemoveBuyingLinkQuery,
} from '../../../ledger/contract/staff-buying-links.js';
import type { Selectable } from 'kysely';
import { authOf, type AuthInfo } from '../../auth/guard.js';
import type { BuyingLinksTable } from '../../db/schema.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import { checkUpload } from '../../blobs/sniff.js';
import {
  BUYING_LINK_NOT_FOUND,
  BuyingLinkError,
  buyingLinksDecider,
  checkLinkFields,
  DEFAULT_BUYING_SERVICES,
  type BuyingLinksCommand,
} from '../../../ledger/buying-links/buying-links.js';
import { assertCanManageUser, customerInReach, STAFF_ONLY } from '../../shared/access.js';
import { UUID } from '../../ids.js';
import { clipText } from '../../plugins/security.js';
import { buyingLinkById, buyingLinksOf, logoBlobOf } from './queries.js';

export const autoPrefix = '/api/v1';

export { LINK_MESSAGES, LOGO_MAX_BYTES };

const logoUrl = (linkId: string) => `/api/v1/buying-links/${linkId}/logo`;

function linkView(row: Selectable<BuyingLinksTable>) {
  return {
    id: row.id,
    user_id: row.user_id,
    url: row.url,
    name: row.name,
    logo_url: logoUrl(row.id),
    created_at: new Date(row.created_at).toISOString(),
  };
}

/**
 * Crypto buying links (spec 001 Payments, spec 002 Payment Management): the three default
 * services and the customer's custom links. A customer reads their own; staff read, add and
 * remove a reachable customer's. The logo's bytes are checked by content and kept in the blob store.
 */
const buyingLinkRoutes: FastifyPluginAsyncZod = async (app) => {
  const { authServices: auth, ledger, blobs } = app;
  const db = ledger.database.db;

  /** Whose links: a customer's own; staff name the user and pass the access rule. */
  async function subjectOf(caller: AuthInfo, userId: string | undefined): Promise<string> {
    if (caller.role === 'USER') {
      if (userId && userId !== caller.userId) throw forbidden('You can only view your own account.');
      return caller.userId;
    }
    if (!userId) throw badRequest('User ID is missing.');
    await assertCanManageUser(db, caller, userId);
    return userId;
  }

  async function record(caller: AuthInfo, userId: string, command: BuyingLinksCommand) {
    try {
      return await ledger.execute(buyingLinksDecider, userId, command, { actor: { id: caller.userId, role: caller.role } });
    } catch (err) {
      if (err instanceof BuyingLinkError) throw err.code === 'not_found' ? notFound(err.message) : badRequest(err.message);
      throw err;
    }
  }

  app.get(
    '/buying-links',
    { schema: { tags: ['api'], response: { 200: BuyingLinks }, querystring: BuyingLinksQuery } },
    async (request) => {
      const userId = await subjectOf(authOf(request), request.query.userId);
      const rows = await buyingLinksOf(db, userId);
      return { defaults: DEFAULT_BUYING_SERVICES, links: rows.map(linkView) };
    },
  );

  app.post(
    '/buying-links',
    {
      // Staff only, before the body is read; which customers they reach is customerInReach's.
      config: { auth: STAFF_ONLY },
      // A PNG of up to 500 KB, base64-encoded, with room to answer a larger one with the spec's text.
      bodyLimit: 1_600_000,
      schema: {
        tags: ['api'],
        response: { 200: BuyingLinkAdded },
        body: AddBuyingLinkBody,
      },
    },
    async (request) => {
      const caller = authOf(request);
      const { userId, logo } = request.body;
      await customerInReach(auth.accounts, caller, userId);
      const url = (request.body.url ?? '').trim();
      const name = (request.body.name ?? '').trim();
      const fieldError = checkLinkFields(url, name);
      if (fieldError) throw badRequest(fieldError);
      if (!logo || !logo.data) throw badRequest(LINK_MESSAGES.logoRequired);
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(logo.data)) throw badRequest(LINK_MESSAGES.logoNotPng);
      const bytes = Buffer.from(logo.data, 'base64');
      const checked = await checkUpload(logo.fileName, bytes, ['png']);
      if (!checked.ok || (logo.contentType && logo.contentType !== 'image/png')) throw badRequest(LINK_MESSAGES.logoNotPng);
      if (bytes.byteLength >= LOGO_MAX_BYTES) throw badRequest(LINK_MESSAGES.logoTooLarge);

      const stored = await blobs.put(bytes, 'image/png');
      const linkId = randomUUID();
      const fileName = clipText(`${Date.now()}_${logo.fileName.replace(/\s+/g, '_')}`, 255);
      try {
        await record(caller, userId, {
          type: 'AddLink',
          linkId,
          name,
          url,
          logo: { blobId: stored.blobId, fileName, contentType: 'image/png', size: stored.size, sha256: stored.sha256 },
        });
      } catch (err) {
        await blobs.delete(stored.blobId);
        throw err;
      }
      const row = await buyingLinkById(db, linkId);
      return {
        link: row
          ? linkView(row)
          : { id: linkId, user_id: userId, url, name, logo_url: logoUrl(linkId), created_at: new Date().toISOString() },
      };
    },
  );

  app.delete(
    '/buying-links/:id',
    {
      config: { auth: STAFF_ONLY },
      schema: {
        tags: ['api'],
        response: { 200: Done },
        params: BuyingLinkParams,
        querystring: RemoveBuyingLinkQuery,
      },
    },
    async (request) => {
      const caller = authOf(request);
      const { userId } = request.query;
      await customerInReach(auth.accounts, caller, userId);
      const id = UUID.safeParse(request.params.id);
      if (!id.success) throw notFound(BUYING_LINK_NOT_FOUND);
      await record(caller, userId, { type: 'RemoveLink', linkId: id.data });
      return { success: true };
    },
  );

  // The logo's public address (spec: the bucket's public URL); images load without a token.
  app.get(
    '/buying-links/:id/logo',
    { config: { auth: 'public' }, schema: { tags: ['api'], response: { 200: LogoFile }, params: BuyingLinkParams } },
    async (request, reply) => {
      const id = UUID.safeParse(request.params.id);
      const row = id.success ? await logoBlobOf(db, id.data) : undefined;
      const blob = row ? await blobs.get(row.logo_blob_id) : null;
      if (!blob) throw notFound('Logo not found.');
      return reply
        .header('content-type', 'image/png')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'")
        .header('cache-control', 'public, max-age=86400, immutable')
        .send(blob.data);
    },
  );
};

export default buyingLinkRoutes;
