import { Button } from '@/components/button.js';
import { useTimedMessage } from '@/features/customer/shared/hooks/use-timed-message.js';
import { customerIcons } from '@/features/customer/shared/components/icons.js';
import { copyText } from '../hooks/use-clipboard.js';
import { QR_SIZE, useQrCode } from '../hooks/use-qr-code.js';
import type { Wallet } from '../wallet.js';

/** How long 'Address copied' stays (spec 001 section 9). */
export const COPY_NOTICE_MS = 2_000;
export const COPY_FAILED = 'Failed to copy address.';
export const NO_ADDRESS = 'No deposit address has been assigned to this wallet yet.';

/** The deposit address with its QR code and a copy action; a clear note while staff have set none. */
export function ReceivePanel({ wallet }: { wallet: Wallet }) {
  const qr = useQrCode(wallet.address);
  const [notice, showNotice] = useTimedMessage(COPY_NOTICE_MS);
  const [copyError, showCopyError] = useTimedMessage(COPY_NOTICE_MS * 2);

  if (!wallet.address) {
    return (
      <div className="receive receive--empty">
        <span className="receive__empty-icon">{customerIcons.shield}</span>
        <p className="receive__empty-title">{NO_ADDRESS}</p>
        <p className="muted">
          Your {wallet.name} deposit address will appear here, with its QR code, once it has been set up for your account.
        </p>
      </div>
    );
  }

  const copy = async () => {
    if (await copyText(wallet.address!)) {
      showCopyError(null);
      showNotice('Address copied to clipboard!');
    } else {
      showNotice(null);
      showCopyError(COPY_FAILED);
    }
  };

  return (
    <div className="receive">
      <p className="muted receive__hint">
        Send only {wallet.name} ({wallet.id}) to this address.
      </p>
      <div className="receive__qr" style={{ width: QR_SIZE, height: QR_SIZE }}>
        {qr.src ? (
          <img src={qr.src} width={QR_SIZE} height={QR_SIZE} alt={`QR code of your ${wallet.id} deposit address`} />
        ) : qr.failed ? (
          <span className="muted">QR code unavailable</span>
        ) : (
          <span className="muted" role="status">
            Loading...
          </span>
        )}
      </div>
      <p className="receive__label">Your {wallet.id} deposit address</p>
      <div className="receive__address-row">
        <code className="receive__address" data-testid="deposit-address">
          {wallet.address}
        </code>
        <Button variant="secondary" className="button--with-icon" onClick={() => void copy()} aria-label="Copy address">
          {customerIcons.copy}
          <span>Copy</span>
        </Button>
      </div>
      <p className="receive__notice" role="status">
        {notice}
      </p>
      {copyError && (
        <p className="inline-error" role="alert">
          {copyError}
        </p>
      )}
    </div>
  );
}
