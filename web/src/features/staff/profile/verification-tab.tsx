import { useQueryClient } from '@tanstack/react-query';
import { type MouseEvent } from 'react';
import { useParams } from 'react-router-dom';
import { ApiError } from '@/lib/api-client.js';
import { profileKeys, useKycDetails } from './api/queries.js';

const STATUS: Record<string, { label: string; tone: string }> = {
  pending: { label: 'Pending Review', tone: 'yellow' },
  verified: { label: 'Verified', tone: 'green' },
  rejected: { label: 'Rejected', tone: 'red' },
};

function errorOf(e: unknown): string {
  if (
    e instanceof ApiError &&
    e.status !== null &&
    e.body &&
    typeof e.body === 'object' &&
    typeof (e.body as { error?: unknown }).error === 'string'
  ) {
    // A server function's own error is shown prefixed (spec 002, the error catalogue).
    return `Error: ${(e.body as { error: string }).error}`;
  }
  return e instanceof Error && e.message ? e.message : 'Failed to fetch KYC details.';
}

/** Links are valid for 5 minutes on the server; one older than this is fetched again before opening. */
const LINK_FRESH_MS = 4 * 60_000;

function DocumentLink({
  path,
  url,
  loadedAt,
  refresh,
}: {
  path: string | null;
  url: string | null;
  loadedAt: number;
  refresh: () => Promise<string | null>;
}) {
  if (!path) return <span className="muted">Not uploaded</span>;
  if (!url) return <span className="field__error">Failed to generate view link (check function logs)</span>;
  const open = (event: MouseEvent<HTMLAnchorElement>) => {
    if (Date.now() - loadedAt < LINK_FRESH_MS) return;
    event.preventDefault();
    // Opened at once (still inside the click), then pointed at a fresh link.
    const tab = window.open('about:blank', '_blank');
    if (tab) tab.opener = null;
    void refresh().then((fresh) => {
      if (tab && fresh) tab.location.href = fresh;
      else tab?.close();
    });
  };
  return (
    <a href={url} target="_blank" rel="noopener noreferrer" title={path} onClick={open}>
      View/Download
    </a>
  );
}

/** User profile > Verification & Docs (spec 002). */
export function VerificationTab() {
  const { userId } = useParams();
  const client = useQueryClient();
  const query = useKycDetails(userId);
  const details = query.data ?? null;
  const loadedAt = query.dataUpdatedAt;

  // Fresh links before opening an old one; a failure here leaves the page as it is.
  const refreshed = (key: 'identityDocSignedUrl' | 'residenceDocSignedUrl') => () =>
    client
      .refetchQueries({ queryKey: profileKeys.kyc(userId ?? '') }, { throwOnError: true })
      .then(() => client.getQueryData<NonNullable<typeof details>>(profileKeys.kyc(userId ?? ''))?.[key] ?? null)
      .catch(() => null);

  if (!userId) return <p className="page-status">User ID parameter is missing from the URL.</p>;
  if (query.isPending) return <p className="page-status">Loading KYC details...</p>;
  if (!details && query.error) return <p className="field__error">Error loading details: {errorOf(query.error)}</p>;
  if (!details || !details.kyc_status || details.kyc_status === 'not_started') {
    return (
      <section className="card profile-card">
        <p className="empty-text">KYC verification has not been started by this user.</p>
      </section>
    );
  }

  const status = STATUS[details.kyc_status] ?? { label: 'Not Started', tone: 'grey' };
  const basics: [string, string | null][] = [
    ['First Name', details.first_name],
    ['Last Name', details.last_name],
    ['Date of Birth', details.dob === null ? null : String(details.dob)],
    ['Country', details.country],
    ['City', details.city],
    ['Postal Code', details.postal_code],
    ['Full Address', details.full_address],
  ];

  return (
    <div className="profile-stack">
      <section className="card profile-card" aria-labelledby="kyc-status-title">
        <h2 id="kyc-status-title" className="card__title">
          Verification Status
        </h2>
        <p>
          <span className={`pill pill--${status.tone}`}>{status.label}</span>
        </p>
      </section>
      <section className="card profile-card" aria-labelledby="kyc-basics-title">
        <h2 id="kyc-basics-title" className="card__title">
          Submitted Basic Details
        </h2>
        <dl className="profile-details">
          {basics.map(([label, value]) => (
            <div key={label} style={{ display: 'contents' }}>
              <dt>{label}</dt>
              <dd>{value || '-'}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section className="card profile-card" aria-labelledby="kyc-docs-title">
        <h2 id="kyc-docs-title" className="card__title">
          Submitted Documents
        </h2>
        <p className="muted">Links work for a few minutes; every opening is recorded with your name.</p>
        <dl className="profile-details">
          <dt>Identity Document</dt>
          <dd>
            <DocumentLink
              path={details.identity_doc_path}
              url={details.identityDocSignedUrl}
              loadedAt={loadedAt}
              refresh={refreshed('identityDocSignedUrl')}
            />
          </dd>
          <dt>Proof of Residence</dt>
          <dd>
            <DocumentLink
              path={details.residence_doc_path}
              url={details.residenceDocSignedUrl}
              loadedAt={loadedAt}
              refresh={refreshed('residenceDocSignedUrl')}
            />
          </dd>
        </dl>
      </section>
    </div>
  );
}
