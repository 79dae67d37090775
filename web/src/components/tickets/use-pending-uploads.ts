import { useCallback, useEffect, useRef, useState } from 'react';
import { getAccessToken } from '@/lib/session.js';
import { removeAttachment, uploadAttachment, type TicketAttachment } from './api.js';
import { ATTACHMENT_RULES, TEXT, fileProblem } from './rules.js';

/**
 * Files uploaded for a reply that is not sent yet. Each is uploaded as soon as it is picked;
 * removing one deletes its file and row on the server. Errors clear after 5 s.
 */
export function usePendingUploads(ticketId: string) {
  const [pending, setPending] = useState<TicketAttachment[]>([]);
  const [uploading, setUploading] = useState(0);
  const [error, setErrorState] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);

  const setError = useCallback((message: string | null) => {
    window.clearTimeout(timer.current);
    setErrorState(message);
    if (message) timer.current = window.setTimeout(() => setErrorState(null), ATTACHMENT_RULES.errorClearMs);
  }, []);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const add = useCallback(
    async (files: File[]) => {
      for (const file of files) {
        const problem = fileProblem(file);
        if (problem) {
          setError(problem);
          continue;
        }
        if (!(await getAccessToken())) {
          setError(TEXT.loginToUpload);
          return;
        }
        setUploading((n) => n + 1);
        try {
          const attachment = await uploadAttachment(ticketId, file);
          setPending((list) => [...list, attachment]);
        } catch (e) {
          setError(TEXT.uploadFailed(file.name, e instanceof Error && e.message ? e.message : 'Upload failed'));
        } finally {
          setUploading((n) => n - 1);
        }
      }
    },
    [ticketId, setError],
  );

  const remove = useCallback(
    async (id: string) => {
      try {
        await removeAttachment(id);
        setPending((list) => list.filter((a) => a.id !== id));
      } catch (e) {
        setError(e instanceof Error && e.message ? `Failed to remove: ${e.message}` : 'Failed to remove attachment');
      }
    },
    [setError],
  );

  const clear = useCallback(() => setPending([]), []);

  return { pending, uploading: uploading > 0, error, add, remove, clear, setError };
}
