import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ChangeEvent } from 'react';
import { LINK_MESSAGES, LOGO_MAX_BYTES } from '@ledger/contract/staff-buying-links.js';
import { Banner } from '@/components/banner.js';
import { Button } from '@/components/button.js';
import { Field } from '@/components/field.js';
import { FileField } from '@/components/file-field.js';
import { Modal } from '@/components/modal.js';
import { ApiError } from '@/lib/api-client.js';
import { useSubmit } from '@/lib/use-submit.js';
import { errorText, profileApi, type PaymentMethodRaw } from './api/calls.js';
import { LINKS_FAILED, METHODS_FAILED, profileKeys, useBuyingLinks, useStaffPaymentMethods } from './api/queries.js';
import { FormDialogFrame } from './form-dialog.js';
import { useProfile } from './profile-context.js';

/** Payment Management tab (spec 002): masked payment methods and the user's crypto buying links. */
export function PaymentManagementTab() {
  const { userId } = useProfile();
  return (
    <div className="profile-stack">
      <PaymentMethodsCard userId={userId} />
      <BuyingLinksCard userId={userId} />
    </div>
  );
}

function PaymentMethodsCard({ userId }: { userId: string }) {
  const query = useStaffPaymentMethods(userId);
  const methods = query.data ?? null;
  const error = query.error
    ? query.error.status === 403
      ? "You don't have permission to view this user's payment methods."
      : METHODS_FAILED
    : null;
  const [raw, setRaw] = useState<PaymentMethodRaw | null>(null);
  const opening = useSubmit();
  const rawError = opening.error;

  const open = (id: string) =>
    opening.run(
      async () => setRaw((await profileApi.paymentMethod(userId, id)).paymentMethod),
      (e) => (e instanceof ApiError && e.status === 404 ? 'Payment method not found.' : 'Failed to load payment method details.'),
    );

  return (
    <section className="card profile-card" aria-labelledby="methods-title">
      <h2 id="methods-title" className="card__title">
        Payment Methods
      </h2>
      {error && <Banner variant="error">{error}</Banner>}
      {rawError && <Banner variant="error">{rawError}</Banner>}
      {!methods && !error && <p className="page-status">Loading...</p>}
      {methods && methods.length === 0 && <p className="empty-text">No payment methods found for this user.</p>}
      {methods && methods.length > 0 && (
        <ul className="method-list">
          {methods.map((m) => (
            <li key={m.id} className="method-row">
              <span className="method-row__text">
                {m.type === 'credit_card' ? (
                  <>
                    <strong>{m.card_brand ?? 'Card'}</strong> <span className="mono">•••• {m.last4}</span>{' '}
                    <span className="muted">Expires {m.expiry_date}</span>
                  </>
                ) : (
                  <>
                    <strong>{m.bank_name ?? 'Bank account'}</strong> <span className="mono">•••• {m.bank_last4}</span>
                  </>
                )}
              </span>
              <span className="method-row__actions">
                <Button
                  variant="secondary"
                  onClick={() => void open(m.id)}
                  aria-label={`View details of ${m.type === 'credit_card' ? m.card_brand : m.bank_name} ending ${m.last4 ?? m.bank_last4}`}
                >
                  View details
                </Button>
                <Button variant="danger" disabled title="Deleting payment methods is disabled">
                  Delete
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <Modal
        open={raw !== null}
        onClose={() => setRaw(null)}
        title="Payment Method Details (Raw)"
        footer={
          <Button variant="secondary" onClick={() => setRaw(null)}>
            Close
          </Button>
        }
      >
        <pre className="raw-json">{JSON.stringify(raw, null, 2)}</pre>
      </Modal>
    </section>
  );
}

function BuyingLinksCard({ userId }: { userId: string }) {
  const client = useQueryClient();
  const query = useBuyingLinks(userId);
  const defaults = query.data?.defaults ?? [];
  const links = query.data?.links ?? null;
  const [adding, setAdding] = useState(false);
  /** Keyed by the link being deleted. */
  const deleting = useSubmit<string>();
  const error = deleting.error ?? (query.error ? LINKS_FAILED : null);

  const load = () => client.invalidateQueries({ queryKey: profileKeys.buyingLinks(userId) });

  const remove = (id: string) =>
    deleting.run(
      async () => {
        await profileApi.deleteBuyingLink(userId, id);
        await load();
      },
      () => 'Failed to delete crypto buying link',
      id,
    );

  return (
    <section className="card profile-card" aria-labelledby="links-title">
      <div className="profile-card__head">
        <div>
          <h2 id="links-title" className="card__title">
            Crypto Buying Links
          </h2>
          <p className="muted">Manage crypto purchase options shown to this user</p>
        </div>
        <Button onClick={() => setAdding(true)}>Add a link</Button>
      </div>
      {error && <Banner variant="error">{error}</Banner>}
      <ul className="link-grid" aria-label="Default options">
        {defaults.map((d) => (
          <li key={d.id} className="link-tile">
            <span className="link-tile__logo link-tile__logo--letter" aria-hidden="true">
              {d.name[0]}
            </span>
            <span className="link-tile__body">
              <a href={d.url} target="_blank" rel="noopener noreferrer">
                {d.name}
              </a>
              <span className="muted small">{d.url}</span>
            </span>
            <span className="pill pill--grey">Default</span>
          </li>
        ))}
      </ul>
      <h3 className="profile-subtitle">Custom Links</h3>
      {links && links.length === 0 && <p className="empty-text">No custom crypto buying links added yet.</p>}
      {links && links.length > 0 && (
        <ul className="link-grid" aria-label="Custom links">
          {links.map((l) => (
            <li key={l.id} className="link-tile">
              <img className="link-tile__logo" src={l.logo_url} alt="" width={40} height={40} />
              <span className="link-tile__body">
                <a href={l.url} target="_blank" rel="noopener noreferrer">
                  {l.name}
                </a>
                <span className="muted small">{l.url}</span>
              </span>
              <Button
                variant="danger"
                onClick={() => void remove(l.id)}
                loading={deleting.busyWith === l.id}
                aria-label={`Delete ${l.name}`}
              >
                Delete
              </Button>
            </li>
          ))}
        </ul>
      )}
      {adding && (
        <AddLinkDialog
          userId={userId}
          onClose={() => setAdding(false)}
          onAdded={async () => {
            setAdding(false);
            await load();
          }}
        />
      )}
    </section>
  );
}

function isWebUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

function AddLinkDialog({ userId, onClose, onAdded }: { userId: string; onClose: () => void; onAdded: () => Promise<void> }) {
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const saving = useSubmit();

  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );

  const pick = (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0] ?? null;
    saving.reset();
    const problem =
      f && f.type !== 'image/png' ? LINK_MESSAGES.logoNotPng : f && f.size >= LOGO_MAX_BYTES ? LINK_MESSAGES.logoTooLarge : null;
    if (problem) {
      saving.fail(problem);
      e.target.value = '';
      return;
    }
    setFile(f);
    setPreview(f ? URL.createObjectURL(f) : null);
  };

  const save = async () => {
    saving.reset();
    if (!url.trim()) return saving.fail('Please enter a valid URL');
    if (!isWebUrl(url.trim())) return saving.fail('Please enter a valid URL with http:// or https://');
    if (!name.trim()) return saving.fail('Please enter a name for the link');
    if (!file) return saving.fail(LINK_MESSAGES.logoRequired);
    await saving.run(
      async () => {
        await profileApi.addBuyingLink({
          userId,
          url: url.trim(),
          name: name.trim(),
          logo: { fileName: file.name, contentType: file.type, data: await readBase64(file) },
        });
        await onAdded();
      },
      (e) => errorText(e, 'Failed to add crypto buying link'),
    );
  };

  return (
    <FormDialogFrame
      title="Add Crypto Buying Link"
      submitLabel="Save Link"
      onClose={onClose}
      onSubmit={() => void save()}
      busy={saving.busy}
      error={saving.error}
    >
      <div className="profile-form">
        <Field label="Website URL" type="url" placeholder="https://" value={url} onChange={(e) => setUrl(e.target.value)} />
        <Field label="Link Name" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
        <FileField id="link-logo" label="Logo Image (PNG only, max 500KB)" accept="image/png" onChange={pick} chosen={file?.name} />
        {preview && <img className="link-preview" src={preview} alt="Logo preview" width={64} height={64} />}
      </div>
    </FormDialogFrame>
  );
}
