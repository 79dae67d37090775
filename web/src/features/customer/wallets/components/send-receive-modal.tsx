import { useState } from 'react';
import { Modal } from '@/components/modal.js';
import { Tabs } from '@/components/tabs.js';
import { formatCrypto, formatUsd } from '@/lib/money.js';
import { AssetIcon } from '@/features/customer/shared/components/asset-icon.js';
import type { Wallet } from '../wallet.js';
import { ReceivePanel } from './receive-panel.js';
import { SendPanel } from './send-panel.js';

export type SendReceiveTab = 'send' | 'receive';

type SendReceiveModalProps = {
  wallet: Wallet | null;
  onClose: () => void;
  canSend: boolean;
  sendDisabledNote: string | null;
  onSent: () => void;
  initialTab?: SendReceiveTab;
};

export function SendReceiveModal({ wallet, onClose, canSend, sendDisabledNote, onSent, initialTab = 'send' }: SendReceiveModalProps) {
  const [tab, setTab] = useState<SendReceiveTab>(initialTab);

  return (
    <Modal open={wallet !== null} onClose={onClose} title={wallet ? `${wallet.name} (${wallet.id})` : ''}>
      {wallet && (
        <>
          <div className="wallet-summary">
            <AssetIcon asset={wallet.id} size="large" />
            <div>
              <p className="wallet-summary__balance">
                <span className="mono">{formatCrypto(wallet.balance)}</span> {wallet.id}
              </p>
              <p className="muted">{wallet.price ? `≈ ${formatUsd(wallet.balance.times(wallet.price))}` : '—'}</p>
            </div>
          </div>
          <Tabs
            label={`${wallet.name} actions`}
            tabs={[
              { key: 'send', label: 'Send' },
              { key: 'receive', label: 'Receive' },
            ]}
            selected={tab}
            onSelect={setTab}
          >
            {tab === 'send' ? (
              <SendPanel wallet={wallet} canSend={canSend} disabledNote={sendDisabledNote} onSent={onSent} />
            ) : (
              <ReceivePanel wallet={wallet} />
            )}
          </Tabs>
        </>
      )}
    </Modal>
  );
}
