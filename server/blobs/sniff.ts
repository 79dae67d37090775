import { fileTypeFromBuffer } from 'file-type';

/** What the bytes of an upload are, judged by content, never by the name the client sent. */
export interface Sniffed {
  /** Lower-case extension family, e.g. 'png', 'pdf', 'txt', 'zip', 'cfb' (old Office). */
  ext: string;
  mime: string;
}

/**
 * The file's real type from its magic bytes (file-type), or plain text when it holds valid
 * UTF-8 with no control bytes besides tab, CR and LF. Null when it is neither.
 */
export async function sniff(data: Uint8Array): Promise<Sniffed | null> {
  const found = await fileTypeFromBuffer(data);
  if (found) return { ext: found.ext, mime: found.mime };
  if (looksLikeText(data)) return { ext: 'txt', mime: 'text/plain' };
  return null;
}

function looksLikeText(data: Uint8Array): boolean {
  if (data.byteLength === 0) return false;
  for (const byte of data) {
    if (byte === 9 || byte === 10 || byte === 13) continue;
    if (byte < 32 || byte === 127) return false;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data);
    return true;
  } catch {
    return false;
  }
}

/**
 * Does the content agree with the name's extension? Word and Excel files are ZIP (docx, xlsx)
 * or OLE containers (doc, xls); CSV is text. `allowed` lists the extensions a caller accepts.
 */
export async function checkUpload(
  fileName: string,
  data: Uint8Array,
  allowed: readonly string[],
): Promise<{ ok: true; ext: string; mime: string } | { ok: false; reason: 'extension' | 'content'; ext: string }> {
  const ext = (fileName.includes('.') ? fileName.split('.').pop()! : '').toLowerCase();
  if (!allowed.includes(ext)) return { ok: false, reason: 'extension', ext };
  const found = await sniff(data);
  if (!found) return { ok: false, reason: 'content', ext };
  const family: Record<string, string[]> = {
    jpg: ['jpg'],
    jpeg: ['jpg'],
    png: ['png'],
    gif: ['gif'],
    webp: ['webp'],
    pdf: ['pdf'],
    txt: ['txt'],
    csv: ['txt', 'csv'],
    doc: ['cfb'],
    xls: ['cfb'],
    docx: ['docx', 'zip'],
    xlsx: ['xlsx', 'zip'],
    zip: ['zip', 'docx', 'xlsx'],
  };
  if (!(family[ext] ?? []).includes(found.ext)) return { ok: false, reason: 'content', ext };
  const mime: Record<string, string> = {
    csv: 'text/csv',
    doc: 'application/msword',
    xls: 'application/vnd.ms-excel',
  };
  return { ok: true, ext, mime: mime[ext] ?? found.mime };
}
