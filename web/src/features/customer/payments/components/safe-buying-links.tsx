import { Card } from '@/components/card.js';
import { useBuyingLinks } from '../api/buying-links.js';
import { customerIcons } from '@/features/customer/shared/components/icons.js';

type Service = { id: string; name: string; url: string; description?: string; logo_url?: string };

/** The default buying services and the customer's custom links (GET /api/v1/buying-links); each opens in a new tab. */
export function SafeBuyingLinks() {
  const { services, error } = useBuyingLinks();

  return (
    <Card className="overview-card safe-links" aria-labelledby="safe-links-title">
      <h2 id="safe-links-title" className="overview-card__title">
        Safe way to buying cryptocurrencies
      </h2>
      <ul className="safe-links__list">
        {[...services.defaults, ...services.links].map((x: Service) => (
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
