import { useCallback, useState } from 'react';
import { Button } from '@/components/button.js';
import { Modal } from '@/components/modal.js';
import { ApiError } from '@/lib/api-client.js';
import { useSession } from '@/lib/session.js';
import { Refusal, useSubmit } from '@/lib/use-submit.js';
import { PagedTable } from '../paged-table.js';
import { listWorkersPage, resetWorkerPassword, type Worker } from './api.js';

/** My Workers: 10 per page, each with a password reset that shows a temporary password once (spec 002). */
export function MyWorkersTab() {
  const managerId = useSession((s) => s.user?.id ?? null);
  /** Keyed by the worker whose password is being reset. */
  const resetting = useSubmit<string>();
  const [issued, setIssued] = useState<{ worker: Worker; password: string } | null>(null);

  const loadPage = useCallback(
    async (page: number, pageSize: number) => {
      const answer = await listWorkersPage(managerId!, page, pageSize);
      return { rows: answer.workers, totalCount: answer.totalCount };
    },
    [managerId],
  );

  const reset = (worker: Worker) =>
    resetting.run(
      async () => {
        const answer = await resetWorkerPassword(worker.id);
        if (!answer?.temporaryPassword) throw new Refusal('Password reset failed: Temporary password not returned.');
        setIssued({ worker, password: answer.temporaryPassword });
      },
      (err) => (err instanceof ApiError && err.status !== null ? err.message : 'Failed to reset password.'),
      worker.id,
    );

  return (
    <PagedTable<Worker>
      titleId="my-workers-title"
      title="My Workers"
      loadPage={managerId ? loadPage : null}
      loadFailure={(err) => `Failed to load workers: ${err instanceof Error ? err.message : 'unknown error'}`}
      loadingLabel="Loading workers..."
      emptyText="You have no workers yet. Create one in the Create Worker tab."
      columns={['Name', 'Email']}
      rowKey={(w) => w.id}
      cells={(w) => (
        <>
          <td data-label="Name">{w.full_name || 'N/A'}</td>
          <td data-label="Email">{w.email}</td>
        </>
      )}
      actions={(w) => (
        <Button variant="secondary" loading={resetting.busyWith === w.id} loadingText="Resetting..." onClick={() => reset(w)}>
          Reset Password
        </Button>
      )}
      actionError={resetting.error}
    >
      <Modal
        open={issued !== null}
        onClose={() => setIssued(null)}
        title="Temporary Password"
        size="small"
        footer={<Button onClick={() => setIssued(null)}>Done</Button>}
      >
        {issued && (
          <>
            <p>
              Give this temporary password to {issued.worker.full_name} ({issued.worker.email}). It is shown only once; they must choose a
              new password when they sign in.
            </p>
            <p className="temporary-password mono" aria-label="Temporary password">
              {issued.password}
            </p>
          </>
        )}
      </Modal>
    </PagedTable>
  );
}
