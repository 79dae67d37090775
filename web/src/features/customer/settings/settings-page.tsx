import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { Card } from '@/components/card.js';
import { ScreenTitle } from '@/components/screen-title.js';
import { Tabs } from '@/components/tabs.js';
import { GeneralTab } from './components/general-tab.js';
import { LiabilitiesProofSection } from './components/liabilities-proof-section.js';
import { NotificationsTab } from './components/notifications-tab.js';
import { PaymentMethodsTab } from './components/payment-methods-tab.js';
import { SecurityTab } from './components/security-tab.js';
import { VerificationTab } from './components/verification-tab.js';

const TABS = [
  { key: 'general', label: 'General' },
  { key: 'notifications', label: 'Notifications' },
  { key: 'verification', label: 'Verification' },
  { key: 'paymentMethods', label: 'Payment Methods' },
  { key: 'security', label: 'Security' },
] as const;
type SettingsTab = (typeof TABS)[number]['key'];

/** activeTab from the navigation state when it names a tab, else general. */
function initialTab(state: unknown): SettingsTab {
  const wanted = state && typeof state === 'object' ? (state as { activeTab?: unknown }).activeTab : undefined;
  return TABS.find((t) => t.key === wanted)?.key ?? 'general';
}

/** /dashboard/settings (spec 001 section 2, "Account Settings"). */
export function SettingsPage() {
  const location = useLocation();
  const [tab, setTab] = useState<SettingsTab>(() => initialTab(location.state));

  return (
    <div className="customer-screen settings">
      <ScreenTitle>Account Settings</ScreenTitle>
      <Card className="overview-card settings-card">
        <Tabs label="Account settings" tabs={[...TABS]} selected={tab} onSelect={setTab}>
          {tab === 'general' && (
            <>
              <GeneralTab />
              <LiabilitiesProofSection />
            </>
          )}
          {tab === 'notifications' && <NotificationsTab />}
          {tab === 'verification' && <VerificationTab />}
          {tab === 'paymentMethods' && <PaymentMethodsTab />}
          {tab === 'security' && <SecurityTab />}
        </Tabs>
      </Card>
    </div>
  );
}
