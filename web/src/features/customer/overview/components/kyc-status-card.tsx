import { memo } from 'react';
import type { ReactNode } from 'react';
import { Button } from '@/components/button.js';
import { Card } from '@/components/card.js';
import { customerIcons } from '@/features/customer/shared/components/icons.js';

type KycView = {
  tone: 'pending' | 'verified' | 'rejected' | 'none';
  title: string;
  text?: string;
  badge?: string;
  buttons: boolean;
  icon: ReactNode;
};

/** The status texts of spec 001 ("KYC status card texts"); an unknown status reads as not verified. */
export function kycView(status: string | null | undefined): KycView {
  switch (status) {
    case 'pending':
      return {
        tone: 'pending',
        title: 'KYC Pending Review',
        text: 'Your documents are being reviewed. This usually takes 1-2 business days.',
        badge: 'Pending',
        buttons: false,
        icon: customerIcons.clock,
      };
    case 'verified':
      return { tone: 'verified', title: 'KYC Verified', badge: 'Verified', buttons: false, icon: customerIcons.check };
    case 'rejected':
      return { tone: 'rejected', title: 'KYC Verification Required', badge: 'Rejected', buttons: true, icon: customerIcons.alert };
    default:
      return { tone: 'none', title: 'KYC Not Verified', buttons: true, icon: customerIcons.shield };
  }
}

type KycStatusCardProps = {
  status: string | null | undefined;
  loading: boolean;
  onVerify?: () => void;
  onLearnMore?: () => void;
};

export const KycStatusCard = memo(function KycStatusCard({ status, loading, onVerify, onLearnMore }: KycStatusCardProps) {
  if (loading) {
    return (
      <Card className="overview-card kyc-card" aria-label="KYC status">
        <p className="muted" role="status">
          Loading KYC status...
        </p>
      </Card>
    );
  }
  const view = kycView(status);
  return (
    <Card className={`overview-card kyc-card kyc-card--${view.tone}`} aria-labelledby="kyc-title">
      <div className="kyc-card__head">
        <span className={`kyc-card__icon kyc-card__icon--${view.tone}`}>{view.icon}</span>
        <h2 id="kyc-title" className="overview-card__title">
          {view.title}
        </h2>
        {view.badge && <span className={`badge badge--${view.tone}`}>{view.badge}</span>}
      </div>
      {view.text && <p className="kyc-card__text">{view.text}</p>}
      {view.buttons && (
        <div className="kyc-card__actions">
          <Button onClick={onVerify}>Verify Now</Button>
          <Button variant="secondary" onClick={onLearnMore}>
            Learn More
          </Button>
        </div>
      )}
    </Card>
  );
});
