import type { ReactNode } from 'react';
import { Button } from '@/components/button.js';
import { Modal } from '@/components/modal.js';
import { formatCrypto, formatFullDateTime, formatSigned, toDecimal } from '@/lib/money.js';
import { assetName } from '@/features/customer/shared/assets.js';
import { AssetIcon } from '@/features/customer/shared/components/asset-icon.js';
import { StatusBadge } from '@/features/customer/shared/components/status-badge.js';
import { typeLabel } from './transaction-labels.js';
import { swapPair, type SwapPair, type TransactionEntry } from './swap-entry.js';

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
export function TransactionDetailModal({ transaction, onClose }: { transaction: TransactionEntry | null; onClose: () => void }) {
  const t = transaction;
  const swap = swapPair(t);
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
      {t && swap && <SwapDetail swap={swap} />}
      {t && !swap && (
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

/** A swap: both legs in one view, sharing their request id (spec 001 section 4). */
function SwapDetail({ swap }: { swap: SwapPair }) {
  const { spent, received } = swap;
  return (
    <>
      <div className="detail-head detail-head--swap">
        <AssetIcon asset={spent.asset_id} size="large" />
        <div>
          <p className="detail-head__amount mono amount--negative">
            {formatSigned(spent.amount, 8)} {spent.asset_id}
          </p>
          <p className="detail-head__amount mono amount--positive">
            {formatSigned(received.amount, 8)} {received.asset_id}
          </p>
          <p className="muted">
            Swap: {spent.asset_id} → {received.asset_id}
          </p>
        </div>
        <StatusBadge status={spent.status} />
      </div>
      <dl className="detail-list">
        <Item label="Type">{typeLabel('swap')}</Item>
        <Item label="Status">
          <StatusBadge status={spent.status} />
        </Item>
        <Item label="Sent">
          <span className="mono">{formatSigned(spent.amount, 8)}</span> {spent.asset_id} ({assetName(spent.asset_id)})
        </Item>
        <Item label="Received">
          <span className="mono">{formatSigned(received.amount, 8)}</span> {received.asset_id} ({assetName(received.asset_id)})
        </Item>
        <Item label="Fee">
          <span className="mono">{formatCrypto(spent.fee ?? '0')}</span> {spent.asset_id}
        </Item>
        <Item label="Date">{formatFullDateTime(spent.sent_at)}</Item>
        <Item label="Request ID" mono>
          {spent.request_id || null}
        </Item>
        <Item label="Sent transaction ID" mono>
          {spent.id}
        </Item>
        <Item label="Received transaction ID" mono>
          {received.id}
        </Item>
        <Item label="Note">{spent.note || null}</Item>
      </dl>
    </>
  );
}
