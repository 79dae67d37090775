import { sql } from 'kysely';
import { BUYING_LINKS_STREAM_PREFIX, isBuyingLinkEventType, type BuyingLinkEvent } from '../ledger/buying-links/buying-links.js';
import { table, timestampText, type Projection } from './projection.js';

/** user_crypto_buying_links from the buying-links streams: one row per link shown now. */
export const buyingLinksProjection: Projection = {
  name: 'buying-links',
  tables: ['user_crypto_buying_links'],
  handles: (type) => isBuyingLinkEventType(type),

  async apply(target, events) {
    const links = table(target, 'user_crypto_buying_links');
    for (const recorded of events) {
      if (!isBuyingLinkEventType(recorded.type) || !recorded.streamId.startsWith(BUYING_LINKS_STREAM_PREFIX)) continue;
      const e = { type: recorded.type, data: recorded.data } as BuyingLinkEvent;
      const userId = recorded.streamId.slice(BUYING_LINKS_STREAM_PREFIX.length);
      if (e.type === 'buying-link.added') {
        await sql`insert into ${links} (id, user_id, url, name, logo_blob_id, created_at)
          values (${e.data.linkId}::uuid, ${userId}::uuid, ${e.data.url}, ${e.data.name}, ${e.data.logo.blobId}::uuid, ${timestampText(recorded.recordedAt)}::timestamptz)
          on conflict (id) do nothing`.execute(target.trx);
      } else {
        await sql`delete from ${links} where id = ${e.data.linkId}::uuid and user_id = ${userId}::uuid`.execute(target.trx);
      }
    }
  },
};
