import { describe, expect, it } from 'vitest';
import { secondApprovalNotice } from '../web/src/features/staff/approvals/advance-notice.js';

const prices = { BTC: { price: 97_000, changePercent24Hr: 0 }, ETH: { price: 2_500.5, changePercent24Hr: 0 } };

describe("the profile dialogs' notice of a second approval ahead", () => {
  it('tells when the value at the screen’s price is above the server’s limit, as the decider judges it (equal is within)', () => {
    const at = (amount: string, limitUsd = '1000') => secondApprovalNotice({ limitUsd, assetId: 'ETH', amount, prices, moment: 'now' });
    expect(at('0.3999')).toBeNull();
    expect(at('0.39991')).toBeNull(); // 999.97 USD
    expect(at('2', '5001')).toBeNull(); // exactly 5001 USD: not above
    expect(at('2.000000000000000001', '5001')).toMatch(
      /^Worth about \$5,001\.00, above the \$5,001\.00 limit for one staff action: once submitted/,
    );
    expect(at('-0.5')).toMatch(/above the \$1,000\.00 limit/); // a debit counts by its size
    expect(at('')).toBeNull();
    expect(at('abc')).toBeNull();
  });

  it('says when the wait comes for a Pending transaction, tells every action under a limit of 0, and is silent without a limit or a price', () => {
    expect(secondApprovalNotice({ limitUsd: '1000', assetId: 'BTC', amount: '1', prices, moment: 'on-completion' })).toBe(
      "Worth about $97,000.00, above the $1,000.00 limit for one staff action: added as Pending it moves no money; completing it will wait for a second person's approval.",
    );
    expect(secondApprovalNotice({ limitUsd: '0', assetId: 'XRP', amount: '0.01', prices: {}, moment: 'now' })).toBe(
      "Every staff action that moves money needs a second person: once submitted, it will wait for a second person's approval.",
    );
    expect(secondApprovalNotice({ limitUsd: undefined, assetId: 'BTC', amount: '1', prices, moment: 'now' })).toBeNull();
    expect(secondApprovalNotice({ limitUsd: '1000', assetId: 'XRP', amount: '1000000', prices, moment: 'now' })).toBeNull();
    // USDT without a feed price counts as 1, as the server values it.
    expect(secondApprovalNotice({ limitUsd: '1000', assetId: 'USDT', amount: '1000.01', prices: {}, moment: 'now' })).toMatch(
      /\$1,000\.01/,
    );
  });
});
