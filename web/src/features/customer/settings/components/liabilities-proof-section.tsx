import { Banner } from '@/components/banner.js';
import { Button } from '@/components/button.js';
import { toApiError } from '@/lib/api-client.js';
import { useSubmit } from '@/lib/use-submit.js';
import { downloadLiabilitiesProof } from '../api/liabilities-proof.js';

/**
 * "Proof of liabilities": the customer downloads the proof that their balances are among the
 * liabilities the operator published (a Merkle root); `npm run ledger -- verify-proof FILE`,
 * or the algorithm in docs/finance.md, checks it without trusting this app.
 */
export function LiabilitiesProofSection() {
  const downloading = useSubmit();
  return (
    <section aria-labelledby="liabilities-proof-title">
      <div className="tab-head">
        <h2 id="liabilities-proof-title" className="tab-head__title">
          Proof of liabilities
        </h2>
      </div>
      <p className="muted">
        Download the proof that your balances are included in the liabilities we last published, and check it against the published root.
      </p>
      <Button
        type="button"
        variant="secondary"
        loading={downloading.busy}
        loadingText="Preparing..."
        onClick={() =>
          void downloading.run(
            () => downloadLiabilitiesProof().catch(async (err: unknown) => Promise.reject(await toApiError(err))),
            (err) => (err instanceof Error ? err.message : String(err)),
          )
        }
      >
        Download my proof (JSON)
      </Button>
      {downloading.error && <Banner variant="error">{downloading.error}</Banner>}
    </section>
  );
}
