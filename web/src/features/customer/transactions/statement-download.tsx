import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import type { StatementQuery } from '@ledger/contract/books.js';
import { Banner } from '@/components/banner.js';
import { Button } from '@/components/button.js';
import { Card } from '@/components/card.js';
import { Field } from '@/components/field.js';
import { http, toApiError } from '@/lib/api-client.js';
import { useSubmit } from '@/lib/use-submit.js';

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** The name the server gave the file, or a plain one. */
function fileNameOf(disposition: string | null, from: string, to: string): string {
  return /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? `statement-${from}-to-${to}.csv`;
}

/** Reads the statement and hands it to the browser as a download. */
async function save(from: string, to: string): Promise<void> {
  const response = await http.get('api/v1/statement', { searchParams: { from, to } satisfies z.input<typeof StatementQuery> });
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(response.headers.get('content-disposition'), from, to);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * "Download statement (CSV)": the customer's own statement for a period, built by the
 * server from the ledger (opening balance, every booked movement with its fee line and the
 * running balance, closing balance, pending items, available balance).
 */
export function StatementDownload() {
  const today = new Date();
  const [from, setFrom] = useState(isoDay(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1))));
  const [to, setTo] = useState(isoDay(today));
  const downloading = useSubmit();

  async function download(event: FormEvent) {
    event.preventDefault();
    downloading.reset();
    if (!from || !to) return downloading.fail('Please choose both dates.');
    if (from > to) return downloading.fail('The start date must be on or before the end date.');
    await downloading.run(
      () => save(from, to).catch(async (err: unknown) => Promise.reject(await toApiError(err))),
      (err) => (err instanceof Error ? err.message : String(err)),
    );
  }

  return (
    <Card className="overview-card statement-download" aria-label="Statement">
      <form
        className="statement-download__form"
        onSubmit={download}
        style={{ display: 'flex', flexWrap: 'wrap', gap: '0.75rem', alignItems: 'flex-start' }}
      >
        <Field label="From" type="date" value={from} onChange={(e) => setFrom(e.target.value)} required />
        <Field label="To" type="date" value={to} onChange={(e) => setTo(e.target.value)} required />
        <Button
          type="submit"
          variant="secondary"
          className="field-with-action__button"
          loading={downloading.busy}
          loadingText="Preparing..."
        >
          Download statement (CSV)
        </Button>
      </form>
      {downloading.error && <Banner variant="error">{downloading.error}</Banner>}
    </Card>
  );
}
