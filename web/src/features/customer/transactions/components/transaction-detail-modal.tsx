import type { ReactNode } from 'react';
import { Button } from '../../../../components/button.js';
import { Modal } from '../../../../components/modal.js';
import { formatCrypto, formatFullDateTime, formatSigned, toDecimal } from '../../../../lib/money.js';
import type { Transaction } from '../../shared/api/transactions.js';
import { assetName } from '../../shared/assets.js';
import { AssetIcon } from '../../shared/components/asset-icon.js';
import { StatusBadge } from '../../shared/components/status-badge.js';
import { typeLabel } from './transaction-labels.js';

function Item({ label, children, mono }: { label: string; children: ReactNode; mono?: boolean }) {
  const empty = children === null || children === undefined || children === '';
  return (
    <div className="detail-list__item">
      <dt>{label}</dt>
      <dd className={mono && !empty ? 'mono detail-list__long' : undefined}>{empty ? '—' : children}</dd>
    </div>
  );
}

/** Every field of one transaction; dates as 'dd MMM yyyy, HH:mm:ss'. */
export function TransactionDetailModal({ transaction, onClose }: { transaction: Transaction | null; onClose: () => void }) {
  const t = transaction;
  const negative = t ? toDecimal(t.amount).isNegative() : false;
  return (
    <Modal
      open={t !== null}
      onClose={onClose}
      title="Transaction Details"
      footer={
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      }
    >
      {t && (
        <>
          <div className="detail-head">
            <AssetIcon asset={t.asset_id} size="large" />
            <div>
              <p className={`detail-head__amount mono ${negative ? 'amount--negative' : 'amount--positive'}`}>
                {formatSigned(t.amount, 8)} {t.asset_id}
              </p>
              <p className="muted">
                {assetName(t.asset_id)} · {typeLabel(t.type)}
              </p>
            </div>
            <StatusBadge status={t.status} />
          </div>
          <dl className="detail-list">
            <Item label="Transaction ID" mono>
              {t.id}
            </Item>
            <Item label="Asset">
              {assetName(t.asset_id)} ({t.asset_id})
            </Item>
            <Item label="Type">{typeLabel(t.type)}</Item>
            <Item label="Status">
              <StatusBadge status={t.status} />
            </Item>
            <Item label="Amount">
              <span className="mono">{formatSigned(t.amount, 8)}</span> {t.asset_id}
            </Item>
            <Item label="Fee">
              <span className="mono">{formatCrypto(t.fee ?? '0')}</span> {t.asset_id}
            </Item>
            <Item label="Date">{formatFullDateTime(t.sent_at)}</Item>
            <Item label="Created">{formatFullDateTime(t.created_at)}</Item>
            <Item label="From address" mono>
              {t.sender_address || null}
            </Item>
            <Item label="To address" mono>
              {t.recipient_address || null}
            </Item>
            <Item label="Transaction hash" mono>
              {t.txid || null}
            </Item>
            <Item label="Request ID" mono>
              {t.request_id || null}
            </Item>
            <Item label="Note">{t.note || null}</Item>
          </dl>
        </>
      )}
    </Modal>
  );
}
