import { Button } from '@/components/button.js';
import { Modal } from '@/components/modal.js';
import './kyc.css';

/** 'About KYC Verification': what KYC is and why it is asked for. */
export function KycInfoModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} onClose={onClose} title="About KYC Verification" footer={<Button onClick={onClose}>Got it</Button>}>
      <div className="kyc-info">
        <p>
          KYC (Know Your Customer) is the identity check every regulated financial service performs. We ask for your basic details, an
          identity document and a proof of residence, and review them once.
        </p>
        <ul className="kyc-info__list">
          <li>
            <strong>Security</strong>: it protects your account and funds against fraud and identity theft.
          </li>
          <li>
            <strong>Compliance</strong>: it lets us meet anti-money-laundering and financial regulations.
          </li>
          <li>
            <strong>Trust</strong>: every account on the platform belongs to a verified person.
          </li>
          <li>
            <strong>Higher limits</strong>: verified accounts get access to higher limits and every feature.
          </li>
        </ul>
        <p className="muted">Only the staff who review your verification can open your documents, and every opening is recorded.</p>
      </div>
    </Modal>
  );
}
