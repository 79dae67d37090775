import { useEffect, useState } from 'react';
import { Card } from '../../../../components/card.js';
import { getJson } from '../../../../lib/api-client.js';
import { customerIcons } from '../../shared/components/icons.js';

type Service = { id: string; name: string; url: string; description?: string; logo_url?: string };
type BuyingLinks = { defaults: Service[]; links: Service[] };

/** Shown until the server answers (and if it cannot): the three fixed services. */
const FALLBACK: Service[] = [
  {
    id: 'default-coinbase',
    name: 'Coinbase',
    url: 'https://www.coinbase.com/',
    description: 'Buy and sell crypto with a card or bank transfer.',
  },
  { id: 'default-kraken', name: 'Kraken', url: 'https://www.kraken.com/', description: 'A long-standing exchange with low fees.' },
  { id: 'default-binance', name: 'Binance', url: 'https://www.binance.com/', description: 'The largest exchange by trading volume.' },
];

/** The default buying services and the customer's custom links (GET /api/v1/buying-links); each opens in a new tab. */
export function SafeBuyingLinks() {
  const [services, setServices] = useState<BuyingLinks>({ defaults: FALLBACK, links: [] });
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    getJson<BuyingLinks>('api/v1/buying-links')
      .then((r) => !cancelled && setServices(r))
      .catch(() => !cancelled && setError('Failed to load custom buying links'));
    return () => {
      cancelled = true;
    };
  }, []);

  return (
    <Card className="overview-card safe-links" aria-labelledby="safe-links-title">
      <h2 id="safe-links-title" className="overview-card__title">
        Safe way to buying cryptocurrencies
      </h2>
      <ul className="safe-links__list">
        {[...services.defaults, ...services.links].map((x) => (
          <li key={x.id}>
            <a className="safe-links__link" href={x.url} target="_blank" rel="noopener noreferrer">
              <span className="safe-links__name">
                {x.logo_url && <img className="safe-links__logo" src={x.logo_url} alt="" width={20} height={20} />}
                {x.name} {customerIcons.external}
                <span className="visually-hidden"> (opens in a new tab)</span>
              </span>
              <span className="muted safe-links__text">{x.description ?? x.url}</span>
            </a>
          </li>
        ))}
      </ul>
      {error && <p className="muted">{error}</p>}
    </Card>
  );
}
