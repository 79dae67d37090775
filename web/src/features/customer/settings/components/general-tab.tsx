import { Banner } from '@/components/banner.js';
import { Field } from '@/components/field.js';
import { useSession } from '@/lib/session.js';
import { useProfileDetails } from '@/features/customer/shared/api/profile.js';

const PROFILE_LOAD_ERROR = 'Failed to load profile data.';
const SUBMITTED = ['pending', 'verified', 'rejected'];

/** Settings > General ('Basic Details'): read-only; the identity fields once verification details were submitted. */
export function GeneralTab() {
  const email = useSession((s) => s.user?.email ?? '');
  const { profile, loading, error } = useProfileDetails();
  const submitted = profile && SUBMITTED.includes(String(profile.kyc_status));

  const fields: [string, string | null][] = profile
    ? [
        ['First Name', profile.first_name],
        ['Last Name', profile.last_name],
        // A time arrives as text in the answer (the contract also lets the server hand over a Date).
        ['Date of Birth', profile.dob === null ? null : String(profile.dob)],
        ['Country', profile.country],
        ['City', profile.city],
        ['Postal Code', profile.postal_code],
        ['Full Address', profile.full_address],
      ]
    : [];

  return (
    <section aria-labelledby="basic-details-title">
      <div className="tab-head">
        <h2 id="basic-details-title" className="tab-head__title">
          Basic Details
        </h2>
      </div>
      <div className="details-grid">
        <Field label="Email" name="email" value={email} readOnly />
        {submitted && fields.map(([label, value]) => <Field key={label} label={label} value={value ?? ''} readOnly />)}
      </div>
      {error && !profile && <Banner variant="error">{PROFILE_LOAD_ERROR}</Banner>}
      {!loading && profile && !submitted && (
        <p className="muted">Your personal details will appear here after you submit your verification information.</p>
      )}
    </section>
  );
}
