import { useState, type ReactNode } from 'react';
import { Banner } from '@/components/banner.js';
import { Button } from '@/components/button.js';
import { SkeletonRows } from '@/components/skeleton-rows.js';
import { customerIcons } from '@/features/customer/shared/components/icons.js';
import { useProfileDetails } from '@/features/customer/shared/api/profile.js';
import { KycVerificationModal } from '@/features/customer/kyc/kyc-verification-modal.js';
import '../settings.css';

type View = { tone: 'verified' | 'pending' | 'rejected' | 'none'; icon: ReactNode; title: string; text: string; action?: string };

/** Spec 001, "Account Settings" > Verification: one panel per KYC status. */
function viewOf(status: string | null | undefined): View {
  switch (status) {
    case 'verified':
      return {
        tone: 'verified',
        icon: customerIcons.check,
        title: 'Identity Verified',
        text: 'Your identity has been verified. You have full access to every feature of your account.',
      };
    case 'pending':
      return {
        tone: 'pending',
        icon: customerIcons.clock,
        title: 'Verification Pending',
        text: 'Your documents are under review. This usually takes 1-2 business days.',
      };
    case 'rejected':
      return {
        tone: 'rejected',
        icon: customerIcons.alert,
        title: 'Verification Rejected',
        text: 'We could not verify your identity with the documents provided. Please submit your details and documents again.',
        action: 'Re-submit Verification',
      };
    default:
      return {
        tone: 'none',
        icon: customerIcons.shield,
        title: 'Verify Your Identity',
        text: 'Submit your basic details, an identity document and a proof of residence to verify your account.',
        action: 'Start Verification',
      };
  }
}

/** Settings > Verification. */
export function VerificationTab() {
  const { profile, loading, error, reload } = useProfileDetails();
  const [open, setOpen] = useState(false);
  const view = viewOf(profile?.kyc_status);

  return (
    <section aria-labelledby="verification-title">
      <div className="tab-head">
        <h2 id="verification-title" className="tab-head__title">
          Identity Verification
        </h2>
      </div>
      {loading && !profile ? (
        <SkeletonRows rows={2} label="Loading verification status..." />
      ) : error && !profile ? (
        <Banner variant="error">Failed to load profile data.</Banner>
      ) : (
        <div className={`verification-panel verification-panel--${view.tone}`}>
          <span className={`kyc-card__icon kyc-card__icon--${view.tone}`}>{view.icon}</span>
          <div className="verification-panel__body">
            <h3 className="verification-panel__title">{view.title}</h3>
            <p className="muted">{view.text}</p>
            {view.action && <Button onClick={() => setOpen(true)}>{view.action}</Button>}
          </div>
        </div>
      )}
      <KycVerificationModal open={open} onClose={() => setOpen(false)} onSubmitted={reload} />
    </section>
  );
}
