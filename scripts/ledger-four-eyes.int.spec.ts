import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureCli, openCliWorkspace, type CliWorkspace } from '../tests/support/cli-workspace.js';
import { loadConfig } from '../server/config.js';
import { createLedgerContext } from '../server/context.js';
import { walletDecider } from '../ledger/wallet/decider.js';
import type { WalletCommand } from '../ledger/wallet/wallet.js';
import { money } from '../ledger/money.js';
import { decide, initialState } from '../ledger/wallet/wallet.js';
import { staffAct } from '../ledger/wallet/wallet.arbitraries.js';

const cli = (args: string[]) => captureCli(args);

/** `ledger trial-balance --from --to` names staff money per member; `ledger verify` holds the log to the two-person rule. */
describe('ledger CLI: staff adjustments and the two-person rule', () => {
  let workspace: CliWorkspace;
  let dataDir: string;
  const customer = randomUUID();
  const worker = randomUUID();
  const manager = randomUUID();
  const now = new Date().toISOString();
  /** BTC at 97000 USD, a limit of 1000 USD a action and 5000 a day. */
  const act = (requestId = randomUUID()) =>
    staffAct(worker, {
      now,
      requestId,
      price: { usd: '97000', ageS: 1, medianUsd: '97000' },
      policy: { limitUsd: '1000', dailyLimitUsd: '5000', maxPriceAgeS: 600, priceBand: '0.5', expiryHours: 72 },
    });
  const manual = (amount: string, extra: Partial<Extract<WalletCommand, { type: 'RecordTransaction' }>> = {}): WalletCommand => ({
    type: 'RecordTransaction',
    transactionId: randomUUID(),
    assetId: 'BTC',
    sentAt: now,
    amount: money(amount),
    status: 'Complete',
    txType: 'deposit',
    note: null,
    senderAddress: 'bank',
    txid: null,
    isHidden: true,
    reason: null,
    staff: act(),
    ...extra,
  });
  /** Runs commands on the customer's wallet, as the API would, then frees the database for the CLI. */
  async function run(commands: WalletCommand[]) {
    const ledger = await createLedgerContext(
      loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, DATABASE_URL: process.env.DATABASE_URL }),
    );
    try {
      for (const c of commands) await ledger.execute(walletDecider, customer, c, { actor: { id: worker, role: 'WORKER' } });
    } finally {
      await ledger.close();
    }
  }

  beforeAll(async () => {
    workspace = await openCliWorkspace('ledger-four-eyes-');
    dataDir = workspace.dataDir;
  }, 120_000);
  afterAll(async () => {
    await workspace.close();
  });

  it('prints adjustments per staff member and asset, and verify passes a log where the large credit was approved', async () => {
    const requestId = randomUUID();
    await run([
      manual('0.01'),
      manual('500', { staff: act(requestId) }),
      {
        type: 'DecideApproval',
        requestId,
        approve: true,
        checker: { id: manager, role: 'MANAGER' },
        makerManagerId: manager,
        makerControllers: [],
        separationDays: 30,
        reason: 'bank statement',
        now,
      },
    ]);
    const tb = await cli(['trial-balance', '--from', '2000-01-01', '--to', '2100-01-01', '--json']);
    expect(tb.code).toBe(0);
    const report = JSON.parse(tb.out);
    // Per maker and checker: the small credit the worker made alone, the large one the manager approved.
    expect(report.staffAdjustments.lines).toEqual([
      { staffId: worker, checkerId: null, assetId: 'BTC', credited: '0.01', postings: 1 },
      { staffId: worker, checkerId: manager, assetId: 'BTC', credited: '500', postings: 1 },
    ]);
    const text = (await cli(['trial-balance', '--from', '2000-01-01', '--to', '2100-01-01'])).out;
    expect(text).toMatch(/maker\s+checker\s+asset\s+net credited\s+postings/);
    expect(text).toMatch(new RegExp(`\\? \\(${worker}\\)\\s+\\? \\(${manager}\\)\\s+BTC\\s+500\\s+1`));
    expect(report.lines[0]).toMatchObject({ assetId: 'BTC', staffAdjustments: '-500.01', externalNet: '0', total: '0' });
    // A period before anything happened has none.
    expect(
      JSON.parse((await cli(['trial-balance', '--from', '2001-01-01', '--to', '2001-01-02', '--json'])).out).staffAdjustments.lines,
    ).toEqual([]);
    await expect(cli(['trial-balance', '--from', '2001-01-01'])).rejects.toThrow('--from and --to go together.');

    const verify = await cli(['verify']);
    expect(verify.code).toBe(0);
    expect(verify.out).toContain(
      'ok   four eyes: every staff credit, debit and settlement above the single or daily limit has an eligible second approval (2 checked, 1 approved by a second person, 0 written before the rule)',
    );
  }, 120_000);

  it('verify fails on a credit above the limit that no second person approved, naming it', async () => {
    // No command can record it (the decider makes it wait): written into the log around the decider,
    // as someone holding the database could.
    const ledger = await createLedgerContext(
      loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, DATABASE_URL: process.env.DATABASE_URL }),
    );
    try {
      const [event] = decide(manual('0.01'), initialState());
      const forged = { ...event!.data, amount: '1' } as Record<string, unknown>;
      const appended = await ledger.store.append(
        `wallet-${customer}`,
        [
          {
            eventId: randomUUID(),
            type: event!.type,
            version: 1,
            data: forged,
            metadata: { actorId: worker, actorRole: 'WORKER', correlationId: randomUUID(), causationId: null, occurredAt: now },
          },
        ],
        { expectedRevision: 'any' },
      );
      await ledger.projector.waitFor(appended.position, 10_000);
    } finally {
      await ledger.close();
    }
    const verify = await cli(['verify']);
    expect(verify.code).toBe(1);
    expect(verify.out).toContain('FAIL four eyes');
    expect(verify.out).toContain('worth 97000 USD, above the limit of 1000 USD, without a second approval');
    expect(verify.out).toMatch(/first event that breaks it: [0-9a-f-]{36} \(wallet.transaction-recorded\)/);
  }, 120_000);
});
