import { useCallback, useState } from 'react';
import { serverWords } from '@/lib/error-text.js';
import { getAccessToken } from '@/lib/session.js';
import { useSubmit } from '@/lib/use-submit.js';
import { removeAttachment, uploadAttachment, type TicketAttachment } from './api.js';
import { ATTACHMENT_RULES, TEXT, fileProblem } from './rules.js';

/**
 * Files uploaded for a reply that is not sent yet. Each is uploaded as soon as it is picked;
 * removing one deletes its file and row on the server. Errors clear after 5 s.
 */
export function usePendingUploads(ticketId: string) {
  const [pending, setPending] = useState<TicketAttachment[]>([]);
  const upload = useSubmit({ errorMs: ATTACHMENT_RULES.errorClearMs });
  const { run, fail } = upload;

  /**
   * The files of one pick, one after another: busy until the last is up. Each file's problem or
   * failure is said in turn (the last one stays), and the next file is still tried.
   */
  const add = useCallback(
    (files: File[]) =>
      run(async () => {
        for (const file of files) {
          const problem = fileProblem(file);
          if (problem) {
            fail(problem);
            continue;
          }
          if (!(await getAccessToken())) return fail(TEXT.loginToUpload);
          try {
            const attachment = await uploadAttachment(ticketId, file);
            setPending((list) => [...list, attachment]);
          } catch (e) {
            fail(TEXT.uploadFailed(file.name, serverWords(e, 'Upload failed')));
          }
        }
      }, 'Upload failed'),
    [ticketId, run, fail],
  );

  const remove = useCallback(
    async (id: string) => {
      try {
        await removeAttachment(id);
        setPending((list) => list.filter((a) => a.id !== id));
      } catch (e) {
        fail(e instanceof Error && e.message ? `Failed to remove: ${e.message}` : 'Failed to remove attachment');
      }
    },
    [fail],
  );

  const clear = useCallback(() => setPending([]), []);

  return { pending, uploading: upload.busy, error: upload.error, add, remove, clear };
}
