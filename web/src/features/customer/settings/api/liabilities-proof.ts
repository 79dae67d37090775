import { http } from '@/lib/api-client.js';

/** The name the server gave the file, or a plain one. */
const fileNameOf = (disposition: string | null) => /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? 'liabilities-proof.json';

/**
 * Reads the customer's proof of inclusion in the last published liabilities
 * (GET /api/v1/liabilities-proof, docs/finance.md) and hands it to the browser as a file.
 */
export async function downloadLiabilitiesProof(): Promise<void> {
  const response = await http.get('api/v1/liabilities-proof');
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(response.headers.get('content-disposition'));
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
