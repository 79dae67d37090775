import { useEffect, useState } from 'react';
import { Banner } from '../../../components/banner.js';
import { Button } from '../../../components/button.js';
import { Modal } from '../../../components/modal.js';
import { Pager } from '../../../components/pager.js';
import { SkeletonRows } from '../../../components/skeleton-rows.js';
import { ApiError } from '../../../lib/api-client.js';
import { useSession } from '../../../lib/session.js';
import { listWorkers, resetWorkerPassword, type Worker } from './api.js';

const PAGE_SIZE = 10;

/** My Workers: 10 per page, each with a password reset that shows a temporary password once (spec 002). */
export function MyWorkersTab() {
  const managerId = useSession((s) => s.user?.id ?? null);
  const [workers, setWorkers] = useState<Worker[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [resetting, setResetting] = useState<string | null>(null);
  const [issued, setIssued] = useState<{ worker: Worker; password: string } | null>(null);

  useEffect(() => {
    if (!managerId) return;
    let cancelled = false;
    listWorkers(managerId)
      .then((list) => !cancelled && setWorkers(list))
      .catch((err: unknown) => !cancelled && setError(`Failed to load workers: ${err instanceof Error ? err.message : 'unknown error'}`));
    return () => {
      cancelled = true;
    };
  }, [managerId]);

  const reset = async (worker: Worker) => {
    setError(null);
    setResetting(worker.id);
    try {
      const answer = await resetWorkerPassword(worker.id);
      if (!answer?.temporaryPassword) setError('Password reset failed: Temporary password not returned.');
      else setIssued({ worker, password: answer.temporaryPassword });
    } catch (err) {
      setError(err instanceof ApiError && err.status !== null ? err.message : 'Failed to reset password.');
    } finally {
      setResetting(null);
    }
  };

  const pageCount = Math.max(1, Math.ceil((workers?.length ?? 0) / PAGE_SIZE));
  const shown = workers?.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE) ?? [];
  return (
    <section className="card staff-card" aria-labelledby="my-workers-title">
      <h2 id="my-workers-title" className="card__title">
        My Workers
      </h2>
      {error && <Banner variant="error">{error}</Banner>}
      {!workers && !error && <SkeletonRows rows={5} columns={3} label="Loading workers..." />}
      {workers && workers.length === 0 && <p className="empty-text">You have no workers yet. Create one in the Create Worker tab.</p>}
      {workers && workers.length > 0 && (
        <div className="staff-table-wrap">
          <table className="staff-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((w) => (
                <tr key={w.id}>
                  <td>{w.full_name || 'N/A'}</td>
                  <td>{w.email}</td>
                  <td className="staff-table__actions">
                    <Button variant="secondary" loading={resetting === w.id} loadingText="Resetting..." onClick={() => reset(w)}>
                      Reset Password
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} pageCount={pageCount} onPageChange={setPage} />
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
              Give this temporary password to {issued.worker.full_name} ({issued.worker.email}). It is shown only once; they must choose a new
              password when they sign in.
            </p>
            <p className="temporary-password mono" aria-label="Temporary password">
              {issued.password}
            </p>
          </>
        )}
      </Modal>
    </section>
  );
}
