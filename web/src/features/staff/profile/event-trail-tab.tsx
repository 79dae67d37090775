import { useState } from 'react';
import type { AssetId } from '@ledger/contract/assets.js';
import { Banner } from '@/components/banner.js';
import { Pager } from '@/components/pager.js';
import { useSession } from '@/lib/session.js';
import { Button } from '@/components/button.js';
import { formatCrypto } from '@/lib/money.js';
import { useSubmit } from '@/lib/use-submit.js';
import { errorText, profileApi, type BalanceAt, type TrailEvent, type TrailKind } from './api/calls.js';
import { useEventTrail } from './api/queries.js';
import { useProfile } from './profile-context.js';
import { dateTime } from './use-flash.js';
import { ScrollArea } from '@/components/scroll-area.js';

const PAGE_SIZE = 25;
const KINDS: { value: TrailKind | 'all'; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'money', label: 'Money' },
  { value: 'kyc', label: 'KYC' },
  { value: 'access', label: 'Access' },
  { value: 'permissions', label: 'Permissions' },
  { value: 'support', label: 'Support' },
];

/** A value as a short readable text: objects become "key: value" lines. */
function readable(value: unknown, indent = ''): string {
  if (value === null || value === undefined) return '-';
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return value.map((v) => readable(v, indent)).join(', ');
  return Object.entries(value as Record<string, unknown>)
    .map(([k, v]) =>
      v && typeof v === 'object' && !Array.isArray(v) ? `${indent}${k}:\n${readable(v, `${indent}  `)}` : `${indent}${k}: ${readable(v)}`,
    )
    .join('\n');
}

/**
 * Event trail: every event behind this user across their streams, newest first, with who did
 * it (the maker) and, for a staff action a second person approved, who approved it (the
 * checker), and when. Read from the log itself, so it shows what happened, not what a table
 * says now.
 */
export function EventTrailTab() {
  const { userId } = useProfile();
  const [kind, setKind] = useState<TrailKind | 'all'>('all');
  const [page, setPage] = useState(1);
  const query = useEventTrail(userId, kind, page, PAGE_SIZE);
  const data = query.data ?? null;
  const error = query.error && !query.isFetching ? errorText(query.error, 'Failed to load the event trail.') : null;

  // Balances at a past moment expose a customer's whole history: the finance API answers admins only.
  const showBalance = useSession((st) => st.role) === 'ADMIN';
  return (
    <section className="card profile-card" aria-labelledby="trail-title">
      <div className="profile-card__head">
        <div>
          <h2 id="trail-title" className="card__title">
            Event trail
          </h2>
          <p className="muted">Every recorded event behind this user, newest first.</p>
        </div>
        <div className="field trail-filter">
          <label className="field__label" htmlFor="trail-kind">
            Kind
          </label>
          <select
            id="trail-kind"
            className="field__input"
            value={kind}
            onChange={(e) => {
              setKind(e.target.value as TrailKind | 'all');
              setPage(1);
            }}
          >
            {KINDS.map((k) => (
              <option key={k.value} value={k.value}>
                {k.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {error && <Banner variant="error">{error}</Banner>}
      {data && (
        <p
          className={data.chain.verified ? 'muted small' : 'inline-error'}
          role={data.chain.verified ? undefined : 'alert'}
          data-testid="trail-chain"
        >
          {data.chain.text}
        </p>
      )}
      {!data && !error && <p className="page-status">Loading...</p>}
      {data && data.events.length === 0 && <p className="empty-text">No events of this kind.</p>}
      {data && data.events.length > 0 && (
        <ScrollArea className="profile-table-wrap" label="Event trail">
          <table className="profile-table trail-table table--stack">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Event</th>
                <th scope="col">Maker</th>
                <th scope="col">Checker</th>
                <th scope="col">Details</th>
                {showBalance && <th scope="col">Balance at this event</th>}
              </tr>
            </thead>
            <tbody>
              {data.events.map((e) => (
                <tr key={e.id} data-event-type={e.type}>
                  <td data-label="Time" className="nowrap">
                    {dateTime(e.occurred_at)}
                  </td>
                  <td data-label="Event">
                    <div>
                      <span className={`pill pill--kind-${e.kind}`}>{e.kind}</span>
                      {e.staff_action && <div>{e.staff_action.name}</div>}
                      <div className="mono small">{e.type}</div>
                    </div>
                  </td>
                  <td data-label="Maker">
                    <div>
                      <strong>{e.staff_action?.maker.name ?? e.actor.name}</strong>
                      <div className="muted small">{e.staff_action ? (e.staff_action.maker.role ?? '-') : e.actor.role}</div>
                    </div>
                  </td>
                  <td data-label="Checker">
                    {e.staff_action?.checker ? (
                      <div>
                        <strong>{e.staff_action.checker.name}</strong>
                        <div className="muted small">{e.staff_action.checker.role ?? '-'}</div>
                      </div>
                    ) : (
                      <span className="muted">-</span>
                    )}
                  </td>
                  <td data-label="Details">
                    <div>
                      <div>{e.summary}</div>
                      <details className="trail-data">
                        <summary>Data</summary>
                        <pre>{readable({ ...e.data, ...(Object.keys(e.metadata).length ? { metadata: e.metadata } : {}) })}</pre>
                      </details>
                    </div>
                  </td>
                  {showBalance && (
                    <td data-label="Balance at this event" className="small">
                      <BalanceAtCell userId={userId} event={e} />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollArea>
      )}
      {data && <Pager page={page} pageCount={Math.ceil(data.total / PAGE_SIZE)} total={data.total} onPageChange={setPage} />}
    </section>
  );
}

/** The wallet's balance just after a wallet event, fetched when asked for (one fold of the stream each). */
function BalanceAtCell({ userId, event }: { userId: string; event: TrailEvent }) {
  const [value, setValue] = useState<BalanceAt | null>(null);
  const loading = useSubmit();
  if (!event.stream.startsWith('wallet-')) return <span className="muted">-</span>;
  const asset = typeof event.data['assetId'] === 'string' ? (event.data['assetId'] as AssetId) : undefined;
  if (value) {
    const rows = value.assets.filter((a) => !asset || a.assetId === asset);
    return (
      <span className="mono">
        {rows.map((a) => (
          <span key={a.assetId} className="balance-at">
            {formatCrypto(a.balance)} {a.assetId}
            <span className="muted"> (available {formatCrypto(a.available)})</span>
          </span>
        ))}
      </span>
    );
  }
  return (
    <>
      <Button
        variant="secondary"
        className="balance-at__button"
        loading={loading.busy}
        onClick={() =>
          void loading.run(
            async () => setValue(await profileApi.balanceAt(userId, event.id, asset)),
            (e) => errorText(e, 'Failed to load the balance.'),
          )
        }
      >
        Show
      </Button>
      {loading.error && <div className="field__error">{loading.error}</div>}
    </>
  );
}
