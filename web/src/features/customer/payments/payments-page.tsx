import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { Banner } from '@/components/banner.js';
import { Card } from '@/components/card.js';
import { ScreenTitle } from '@/components/screen-title.js';
import { Tabs } from '@/components/tabs.js';
import { usePaymentMethods } from '../shared/api/payment-methods.js';
import { useProfileDetails } from '../shared/api/profile.js';
import type { PaymentKind } from './api/requests.js';
import { PaymentForm } from './components/payment-form.js';
import { SafeBuyingLinks } from './components/safe-buying-links.js';

/** The tab to start on: activeTab from the navigation state, else Withdrawal. */
function initialTab(state: unknown): PaymentKind {
  const wanted = state && typeof state === 'object' ? (state as { activeTab?: unknown }).activeTab : undefined;
  return wanted === 'deposit' ? 'deposit' : 'withdrawal';
}

/** /dashboard/payments (spec 001 section 2, "Payments"). */
export function PaymentsPage() {
  const location = useLocation();
  const [tab, setTab] = useState<PaymentKind>(() => initialTab(location.state));
  const { profile, error: profileError, reload } = useProfileDetails();
  // The available balance moves when a transaction settles or fails: the hook reads it again.
  const { methods, loading, error } = usePaymentMethods();

  const canSell = profile?.can_sell !== false;
  const canBuy = profile?.can_buy !== false;
  const tabLabel = (text: string, permitted: boolean) =>
    permitted ? (
      text
    ) : (
      <span className="tab-label--greyed">
        {text}
        <span className="visually-hidden"> (not permitted)</span>
      </span>
    );

  return (
    <div className="customer-screen payments">
      <ScreenTitle>Payments</ScreenTitle>
      {profileError && <Banner variant="error">{profileError}</Banner>}
      <div className="payments-grid">
        <Card className="overview-card payments-card">
          <Tabs
            label="Payment type"
            tabs={[
              { key: 'withdrawal', label: tabLabel('Withdrawal', canSell) },
              { key: 'deposit', label: tabLabel('Deposit', canBuy) },
            ]}
            selected={tab}
            onSelect={setTab}
          >
            <PaymentForm
              key={tab}
              kind={tab}
              profile={profile}
              methods={methods}
              methodsLoading={loading}
              methodsError={error}
              onSubmitted={reload}
            />
          </Tabs>
        </Card>
        <SafeBuyingLinks />
      </div>
    </div>
  );
}
