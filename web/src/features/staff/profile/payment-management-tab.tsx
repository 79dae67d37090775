import { useCallback, useEffect, useState, type ChangeEvent } from 'react';
import { Banner } from '../../../components/banner.js';
import { Button } from '../../../components/button.js';
import { Field } from '../../../components/field.js';
import { FileField } from '../../../components/file-field.js';
import { Modal } from '../../../components/modal.js';
import { ApiError } from '../../../lib/api-client.js';
import { errorText, profileApi, type BuyingLink, type DefaultService, type PaymentMethodRaw } from './api/calls.js';
import { FormDialogFrame } from './form-dialog.js';
import { useProfile } from './profile-context.js';

const LOGO_MAX_BYTES = 512_000;

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
  const [methods, setMethods] = useState<PaymentMethodRaw[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [raw, setRaw] = useState<PaymentMethodRaw | null>(null);
  const [rawError, setRawError] = useState<string | null>(null);

  useEffect(() => {
    profileApi
      .paymentMethods(userId)
      .then((r) => setMethods(r.paymentMethods))
      .catch((e) =>
        setError(
          e instanceof ApiError && e.status === 403
            ? "You don't have permission to view this user's payment methods."
            : 'Failed to load payment methods.',
        ),
      );
  }, [userId]);

  const open = async (id: string) => {
    setRawError(null);
    try {
      setRaw((await profileApi.paymentMethod(userId, id)).paymentMethod);
    } catch (e) {
      setRawError(e instanceof ApiError && e.status === 404 ? 'Payment method not found.' : 'Failed to load payment method details.');
    }
  };

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
  const [defaults, setDefaults] = useState<DefaultService[]>([]);
  const [links, setLinks] = useState<BuyingLink[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const r = await profileApi.buyingLinks(userId);
      setDefaults(r.defaults);
      setLinks(r.links);
    } catch {
      setError('Failed to load crypto buying links.');
    }
  }, [userId]);
  useEffect(() => {
    void load();
  }, [load]);

  const remove = async (id: string) => {
    setDeleting(id);
    setError(null);
    try {
      await profileApi.deleteBuyingLink(userId, id);
      await load();
    } catch {
      setError('Failed to delete crypto buying link');
    } finally {
      setDeleting(null);
    }
  };

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
              <Button variant="danger" onClick={() => void remove(l.id)} loading={deleting === l.id} aria-label={`Delete ${l.name}`}>
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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );

  const pick = (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0] ?? null;
    setError(null);
    if (f && f.type !== 'image/png') {
      setError('Please upload a PNG file only');
      e.target.value = '';
      return;
    }
    if (f && f.size >= LOGO_MAX_BYTES) {
      setError('File size should be less than 500KB');
      e.target.value = '';
      return;
    }
    setFile(f);
    setPreview(f ? URL.createObjectURL(f) : null);
  };

  const save = async () => {
    setError(null);
    if (!url.trim()) return setError('Please enter a valid URL');
    try {
      const u = new URL(url.trim());
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
    } catch {
      return setError('Please enter a valid URL with http:// or https://');
    }
    if (!name.trim()) return setError('Please enter a name for the link');
    if (!file) return setError('Please upload a logo image');
    setBusy(true);
    try {
      await profileApi.addBuyingLink({
        userId,
        url: url.trim(),
        name: name.trim(),
        logo: { fileName: file.name, contentType: file.type, data: await readBase64(file) },
      });
      await onAdded();
    } catch (e) {
      setError(errorText(e, 'Failed to add crypto buying link'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormDialogFrame
      title="Add Crypto Buying Link"
      submitLabel="Save Link"
      onClose={onClose}
      onSubmit={() => void save()}
      busy={busy}
      error={error}
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
