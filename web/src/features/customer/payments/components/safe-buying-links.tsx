import { Card } from '../../../../components/card.js';
import { customerIcons } from '../../shared/components/icons.js';

/** Well-known exchanges where crypto can be bought; each opens in a new tab. */
export const EXCHANGES = [
  { name: 'Coinbase', url: 'https://www.coinbase.com/', text: 'Buy and sell crypto with a card or bank transfer.' },
  { name: 'Kraken', url: 'https://www.kraken.com/', text: 'A long-standing exchange with low fees.' },
  { name: 'Binance', url: 'https://www.binance.com/', text: 'The largest exchange by trading volume.' },
] as const;

export function SafeBuyingLinks() {
  return (
    <Card className="overview-card safe-links" aria-labelledby="safe-links-title">
      <h2 id="safe-links-title" className="overview-card__title">
        Safe way to buying cryptocurrencies
      </h2>
      <ul className="safe-links__list">
        {EXCHANGES.map((x) => (
          <li key={x.name}>
            <a className="safe-links__link" href={x.url} target="_blank" rel="noopener noreferrer">
              <span className="safe-links__name">
                {x.name} {customerIcons.external}
                <span className="visually-hidden"> (opens in a new tab)</span>
              </span>
              <span className="muted safe-links__text">{x.text}</span>
            </a>
          </li>
        ))}
      </ul>
    </Card>
  );
}
