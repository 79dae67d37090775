import { z } from 'zod';
import { unknownCommand, type Decider } from '../decider.js';

/**
 * A customer's custom crypto buying links (spec 002, Payment Management): `buying-links-{userId}`.
 * Staff add and remove them; the logo's bytes live in the blob store, the event keeps its reference.
 */
export const buyingLinksStream = (userId: string) => `buying-links-${userId}`;
export const BUYING_LINKS_STREAM_PREFIX = 'buying-links-';

export const LINK_NAME_MAX = 100;
export const LINK_URL_MAX = 2000;

const LogoRef = z.object({
  blobId: z.uuid(),
  fileName: z.string(),
  contentType: z.literal('image/png'),
  size: z.number().int().positive(),
  sha256: z.string(),
});

export const buyingLinkEventSchemas = {
  'buying-link.added': {
    version: 1,
    schema: z.object({
      linkId: z.uuid(),
      name: z.string().min(1).max(LINK_NAME_MAX),
      url: z.string().min(1).max(LINK_URL_MAX),
      logo: LogoRef,
    }),
  },
  'buying-link.removed': { version: 1, schema: z.object({ linkId: z.uuid() }) },
} as const;

type Schemas = typeof buyingLinkEventSchemas;
export type BuyingLinkEventType = keyof Schemas;
export type BuyingLinkEvent = { [T in BuyingLinkEventType]: { type: T; data: z.infer<Schemas[T]['schema']> } }[BuyingLinkEventType];
export type LogoRef = z.infer<typeof LogoRef>;

export function isBuyingLinkEventType(type: string): type is BuyingLinkEventType {
  return Object.prototype.hasOwnProperty.call(buyingLinkEventSchemas, type);
}

export type BuyingLinksCommand =
  { type: 'AddLink'; linkId: string; name: string; url: string; logo: LogoRef } | { type: 'RemoveLink'; linkId: string };

/** Links shown now: id -> logo blob id. */
export type BuyingLinksState = Map<string, string>;

export const BUYING_LINK_NOT_FOUND = 'Crypto buying link not found.';

export class BuyingLinkError extends Error {
  constructor(
    readonly code: 'not_found' | 'duplicate',
    message: string,
  ) {
    super(message);
    this.name = 'BuyingLinkError';
  }
}

export function evolveBuyingLinks(state: BuyingLinksState, event: BuyingLinkEvent): BuyingLinksState {
  const next = new Map(state);
  if (event.type === 'buying-link.added') next.set(event.data.linkId, event.data.logo.blobId);
  else next.delete(event.data.linkId);
  return next;
}

export function decideBuyingLinks(command: BuyingLinksCommand, state: BuyingLinksState): BuyingLinkEvent[] {
  switch (command.type) {
    case 'AddLink':
      if (state.has(command.linkId)) throw new BuyingLinkError('duplicate', 'This link already exists.');
      return [{ type: 'buying-link.added', data: { linkId: command.linkId, name: command.name, url: command.url, logo: command.logo } }];
    case 'RemoveLink':
      if (!state.has(command.linkId)) throw new BuyingLinkError('not_found', BUYING_LINK_NOT_FOUND);
      return [{ type: 'buying-link.removed', data: { linkId: command.linkId } }];
    default:
      return unknownCommand(command);
  }
}

export const buyingLinksDecider: Decider<BuyingLinksCommand, BuyingLinkEvent, BuyingLinksState> = {
  category: 'buying-links',
  initialState: () => new Map(),
  evolve: evolveBuyingLinks,
  decide: decideBuyingLinks,
  schemas: buyingLinkEventSchemas,
};

/** The three fixed buying services every customer sees, labelled 'Default' on the staff screen. */
export const DEFAULT_BUYING_SERVICES = [
  {
    id: 'default-coinbase',
    name: 'Coinbase',
    url: 'https://www.coinbase.com/',
    description: 'Buy and sell crypto with a card or bank transfer.',
  },
  { id: 'default-kraken', name: 'Kraken', url: 'https://www.kraken.com/', description: 'A long-standing exchange with low fees.' },
  { id: 'default-binance', name: 'Binance', url: 'https://www.binance.com/', description: 'The largest exchange by trading volume.' },
] as const;

/** The spec's checks of the add-link form, in its order and with its words; null when the fields are good. */
export function checkLinkFields(url: string, name: string): string | null {
  const u = url.trim();
  if (!u) return 'Please enter a valid URL';
  let parsed: URL | null;
  try {
    parsed = new URL(u);
  } catch {
    parsed = null;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || u.length > LINK_URL_MAX)
    return 'Please enter a valid URL with http:// or https://';
  if (!name.trim()) return 'Please enter a name for the link';
  if (name.trim().length > LINK_NAME_MAX) return `The link name can have at most ${LINK_NAME_MAX} characters.`;
  return null;
}
