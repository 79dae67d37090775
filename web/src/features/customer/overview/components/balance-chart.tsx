import { memo, useMemo, useState } from 'react';
import type { Decimal } from 'decimal.js';
import { Card } from '@/components/card.js';
import { formatDay, formatUsd, toDecimal, ZERO } from '@/lib/money.js';
import type { PriceMap } from '@/features/customer/shared/api/prices.js';
import { ASSET_IDS } from '@/features/customer/shared/assets.js';
import { priceOf } from '@/features/customer/shared/balances.js';
import type { DayBalances } from '../api/balance-history.js';
import './balance-chart.css';

type BalanceChartProps = {
  days: DayBalances[] | null;
  prices: PriceMap | null;
  loading: boolean;
  error: string | null;
};

const WIDTH = 720;
const HEIGHT = 180;
const PAD_X = 8;
const PAD_Y = 14;

/**
 * The settled holdings of each of the last 30 days, valued at today's prices, so the line
 * moves with what the customer did rather than with the market.
 */
export const BalanceChart = memo(function BalanceChart({ days, prices, loading, error }: BalanceChartProps) {
  const [hover, setHover] = useState<number | null>(null);
  const points = useMemo(() => {
    if (!days || !prices) return null;
    return days.map((d) => {
      let value: Decimal = ZERO;
      for (const asset of ASSET_IDS) {
        const price = priceOf(prices, asset);
        if (price) value = value.plus(toDecimal(d.balances[asset]).times(price));
      }
      return { date: d.date, value };
    });
  }, [days, prices]);

  const geometry = useMemo(() => {
    if (!points || points.length < 2) return null;
    const values = points.map((p) => p.value.toNumber()); // drawing only: pixels, not money
    const max = Math.max(...values);
    const min = Math.min(...values, 0);
    const span = max - min || 1;
    const x = (i: number) => PAD_X + (i * (WIDTH - 2 * PAD_X)) / (points.length - 1);
    const y = (v: number) => HEIGHT - PAD_Y - ((v - min) * (HEIGHT - 2 * PAD_Y)) / span;
    const line = values.map((v, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    const area = `${line} L${x(values.length - 1).toFixed(1)},${HEIGHT - PAD_Y} L${x(0).toFixed(1)},${HEIGHT - PAD_Y} Z`;
    return { line, area, x, y, values };
  }, [points]);

  const shown = points && hover !== null ? points[hover] : points?.at(-1);
  const flat = points?.every((p) => p.value.isZero());

  return (
    <Card className="overview-card balance-chart" aria-labelledby="balance-chart-title">
      <div className="balance-chart__head">
        <h2 id="balance-chart-title" className="overview-card__title">
          Balance over time
        </h2>
        {shown && (
          <p className="balance-chart__readout" data-testid="balance-chart-readout">
            <span className="muted">{formatDay(shown.date)}</span> {formatUsd(shown.value)}
          </p>
        )}
      </div>
      <p className="muted balance-chart__hint">Settled holdings of the last 30 days, valued at today's prices.</p>
      {error ? (
        <p className="muted">{error}</p>
      ) : loading || !geometry || !points ? (
        <p className="placeholder-text">Loading...</p>
      ) : flat ? (
        <p className="muted">Your balance history appears here once a transaction has completed.</p>
      ) : (
        <svg
          className="balance-chart__svg"
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={`Balance over the last ${points.length} days, from ${formatUsd(points[0]!.value)} to ${formatUsd(points.at(-1)!.value)}`}
          onMouseLeave={() => setHover(null)}
          onMouseMove={(e) => {
            const box = e.currentTarget.getBoundingClientRect();
            const ratio = (e.clientX - box.left) / box.width;
            setHover(Math.max(0, Math.min(points.length - 1, Math.round(ratio * (points.length - 1)))));
          }}
        >
          <defs>
            <linearGradient id="balance-chart-fill" x1="0" y1="0" x2="0" y2="1">
              <stop offset="0%" stopColor="currentColor" stopOpacity="0.45" />
              <stop offset="100%" stopColor="currentColor" stopOpacity="0" />
            </linearGradient>
          </defs>
          <path d={geometry.area} fill="url(#balance-chart-fill)" />
          <path d={geometry.line} fill="none" stroke="currentColor" strokeWidth="2" vectorEffect="non-scaling-stroke" />
          {hover !== null && (
            <line
              x1={geometry.x(hover)}
              x2={geometry.x(hover)}
              y1={PAD_Y}
              y2={HEIGHT - PAD_Y}
              stroke="currentColor"
              strokeOpacity="0.5"
              strokeDasharray="4 4"
              vectorEffect="non-scaling-stroke"
            />
          )}
        </svg>
      )}
      {points && points.length > 1 && !flat && !loading && !error && (
        <div className="balance-chart__axis muted">
          <span>{formatDay(points[0]!.date)}</span>
          <span>{formatDay(points.at(-1)!.date)}</span>
        </div>
      )}
    </Card>
  );
});
