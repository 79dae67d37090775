import { useState, type ChangeEvent } from 'react';
import { Banner } from '@/components/banner.js';
import { Button } from '@/components/button.js';
import { Field } from '@/components/field.js';
import { FileField } from '@/components/file-field.js';
import { Modal } from '@/components/modal.js';
import { useSubmit } from '@/lib/use-submit.js';
import { KYC_ACCEPT, KYC_MESSAGES, submissionMessage, submitKyc, type BasicDetails } from './kyc-api.js';
import './kyc.css';

const EMPTY: BasicDetails = { firstName: '', lastName: '', dob: '', country: '', city: '', postalCode: '', fullAddress: '' };
/** maxLength mirrors the server's limits (server/kyc/submission.ts, DETAIL_FIELDS), which refuse a longer value. */
const FIELDS: { key: keyof BasicDetails; label: string; maxLength: number; type?: string; autoComplete?: string }[] = [
  { key: 'firstName', label: 'First Name', maxLength: 100, autoComplete: 'given-name' },
  { key: 'lastName', label: 'Last Name', maxLength: 100, autoComplete: 'family-name' },
  { key: 'dob', label: 'Date of Birth', maxLength: 10, type: 'date', autoComplete: 'bday' },
  { key: 'country', label: 'Country', maxLength: 100, autoComplete: 'country-name' },
  { key: 'city', label: 'City', maxLength: 100, autoComplete: 'address-level2' },
  { key: 'postalCode', label: 'Postal Code', maxLength: 20, autoComplete: 'postal-code' },
  { key: 'fullAddress', label: 'Full Address', maxLength: 500, autoComplete: 'street-address' },
];

type DetailErrors = Partial<Record<keyof BasicDetails, string>>;
type DocErrors = { identityDoc?: string; residenceDoc?: string };

function validateDetails(details: BasicDetails): DetailErrors {
  const errors: DetailErrors = {};
  for (const { key } of FIELDS) if (!details[key].trim()) errors[key] = KYC_MESSAGES.required;
  return errors;
}

type KycVerificationModalProps = {
  open: boolean;
  onClose: () => void;
  /** After the server accepted the submission (the status is now pending). */
  onSubmitted: () => void;
};

/** The two-step verification modal of spec 001 ("KYC modals"). */
export function KycVerificationModal({ open, onClose, onSubmitted }: KycVerificationModalProps) {
  const [step, setStep] = useState<1 | 2>(1);
  const [details, setDetails] = useState<BasicDetails>(EMPTY);
  const [errors, setErrors] = useState<DetailErrors>({});
  const [identityDoc, setIdentityDoc] = useState<File | null>(null);
  const [residenceDoc, setResidenceDoc] = useState<File | null>(null);
  const [docErrors, setDocErrors] = useState<DocErrors>({});
  const sending = useSubmit();
  const submitting = sending.busy;

  const reset = () => {
    setStep(1);
    setDetails(EMPTY);
    setErrors({});
    setIdentityDoc(null);
    setResidenceDoc(null);
    setDocErrors({});
    sending.reset();
  };
  const close = () => {
    if (submitting) return;
    reset();
    onClose();
  };

  const edit = (key: keyof BasicDetails) => (event: ChangeEvent<HTMLInputElement>) => {
    const value = event.target.value;
    setDetails((d) => ({ ...d, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const pick = (which: keyof DocErrors) => (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0] ?? null;
    (which === 'identityDoc' ? setIdentityDoc : setResidenceDoc)(file);
    setDocErrors((e) => ({ ...e, [which]: undefined }));
    sending.reset();
  };

  const next = () => {
    const found = validateDetails(details);
    setErrors(found);
    if (Object.keys(found).length === 0) setStep(2);
  };

  const submit = async () => {
    sending.reset();
    const found = validateDetails(details);
    if (Object.keys(found).length > 0) {
      setErrors(found);
      setStep(1);
      return;
    }
    if (!identityDoc || !residenceDoc) {
      setDocErrors({
        identityDoc: identityDoc ? undefined : KYC_MESSAGES.identityRequired,
        residenceDoc: residenceDoc ? undefined : KYC_MESSAGES.residenceRequired,
      });
      sending.fail(KYC_MESSAGES.documentsMissing);
      return;
    }
    const trimmed = Object.fromEntries(Object.entries(details).map(([k, v]) => [k, v.trim()])) as BasicDetails;
    const sent = await sending.run(() => submitKyc(trimmed, identityDoc, residenceDoc), submissionMessage);
    if (!sent) return;
    reset();
    onSubmitted();
    onClose();
  };

  const footer = (
    <>
      <Button variant="secondary" onClick={close} disabled={submitting}>
        Cancel
      </Button>
      {step === 2 && (
        <Button variant="secondary" onClick={() => setStep(1)} disabled={submitting}>
          Previous
        </Button>
      )}
      {step === 1 ? (
        <Button onClick={next}>Next</Button>
      ) : (
        <Button onClick={() => void submit()} loading={submitting} loadingText="Submitting...">
          Submit KYC
        </Button>
      )}
    </>
  );

  return (
    <Modal open={open} onClose={close} title="Identity Verification (KYC)" footer={footer} size="large">
      <ol className="kyc-steps" aria-label="Steps">
        <li
          className={step === 1 ? 'kyc-steps__item kyc-steps__item--current' : 'kyc-steps__item kyc-steps__item--done'}
          aria-current={step === 1 ? 'step' : undefined}
        >
          Step 1: Basic Details
        </li>
        <li
          className={step === 2 ? 'kyc-steps__item kyc-steps__item--current' : 'kyc-steps__item'}
          aria-current={step === 2 ? 'step' : undefined}
        >
          Step 2: Document Upload
        </li>
      </ol>
      {sending.error && <Banner variant="error">{sending.error}</Banner>}
      {step === 1 ? (
        <div className="kyc-form">
          <h3 className="kyc-form__title">Step 1: Basic Details</h3>
          <div className="kyc-form__grid">
            {FIELDS.map((f) => (
              <Field
                key={f.key}
                className={f.key === 'fullAddress' ? 'kyc-form__wide' : undefined}
                label={f.label}
                name={f.key}
                type={f.type ?? 'text'}
                autoComplete={f.autoComplete}
                value={details[f.key]}
                onChange={edit(f.key)}
                error={errors[f.key]}
                maxLength={f.maxLength}
              />
            ))}
          </div>
        </div>
      ) : (
        <div className="kyc-form">
          <h3 className="kyc-form__title">Step 2: Document Upload</h3>
          <FileField
            label="Identity Document (passport, ID card or driving licence)"
            name="identityDoc"
            accept={KYC_ACCEPT}
            onChange={pick('identityDoc')}
            chosen={identityDoc && `Selected: ${identityDoc.name}`}
            hint="PDF, JPEG, JPG or PNG, up to 10MB"
            error={docErrors.identityDoc}
          />
          <FileField
            label="Proof of Residence (utility bill or bank statement)"
            name="residenceDoc"
            accept={KYC_ACCEPT}
            onChange={pick('residenceDoc')}
            chosen={residenceDoc && `Selected: ${residenceDoc.name}`}
            hint="PDF, JPEG, JPG or PNG, up to 10MB"
            error={docErrors.residenceDoc}
          />
        </div>
      )}
    </Modal>
  );
}
