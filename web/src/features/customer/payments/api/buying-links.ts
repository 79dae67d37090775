import { useQuery } from '@tanstack/react-query';
import { BuyingLinks, DEFAULT_BUYING_SERVICES } from '@ledger/contract/staff-buying-links.js';
import { getJson } from '@/lib/api-client.js';
import { parseAnswer } from '@/lib/query.js';

export const LINKS_FAILED = 'Failed to load custom buying links';

/** Shown until the server answers (and if it cannot): the three fixed services. */
const FALLBACK = { defaults: DEFAULT_BUYING_SERVICES, links: [] };

/** The default buying services and the customer's own custom links. */
export function useBuyingLinks() {
  const query = useQuery({
    queryKey: ['customer', 'buying-links'],
    queryFn: async ({ signal }) => parseAnswer(BuyingLinks, await getJson('api/v1/buying-links', { signal }), LINKS_FAILED),
  });
  return { services: query.data ?? FALLBACK, error: query.error ? LINKS_FAILED : null };
}
