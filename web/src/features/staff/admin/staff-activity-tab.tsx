import { useEffect, useState, type FormEvent } from 'react';
import { Banner } from '@/components/banner.js';
import { Button } from '@/components/button.js';
import { Field } from '@/components/field.js';
import { SkeletonRows } from '@/components/skeleton-rows.js';
import { formatFullDateTime, formatListDate } from '@/lib/money.js';
import { useSubmit } from '@/lib/use-submit.js';
import { staffActionLabel } from '@ledger/contract/staff-activity.js';
import { staffActionsCsv, useStaffActions, type StaffAction, type StaffActionFilters } from './api.js';
import './staff-activity.css';
import { ScrollArea } from '@/components/scroll-area.js';

const PAGE_SIZE = 25;
const NO_FILTERS: StaffActionFilters = { staff: '', customer: '', action: '', from: '', to: '' };

/** When a staff action happened: the format module's long form, in the viewer's time zone. */
const when = (iso: string) => formatFullDateTime(iso) || iso;

/** A maker or a checker as the list names them: name, then e-mail address and role. */
function Person({ id, name, email, role }: { id: string | null; name: string | null; email: string | null; role: string | null }) {
  if (!id) return <strong>{role === 'OPERATOR' ? 'Operator (command line)' : '-'}</strong>;
  return (
    <div>
      <strong>{name || email || id}</strong>
      <div className="staff-activity__sub">
        {email} · {role ?? '-'}
      </div>
    </div>
  );
}

const checkerOf = (a: StaffAction) => ({ id: a.checker_id, name: a.checker_name, email: a.checker_email, role: a.checker_role });

/**
 * Staff activity (admins): every staff action newest first, with its maker and, when a second
 * person approved it, its checker; filtered by staff member, account, action and dates, paged
 * by the server's cursor, and downloadable as CSV.
 */
export function StaffActivityTab() {
  const [draft, setDraft] = useState<StaffActionFilters>(NO_FILTERS);
  const [filters, setFilters] = useState<StaffActionFilters>(NO_FILTERS);
  // The cursors of the pages before this one (null: the first page), and this page's.
  const [trail, setTrail] = useState<(string | null)[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const actions = useStaffActions(filters, PAGE_SIZE, cursor);
  const page = actions.data ?? null;
  // The filter's action names stay when a page fails to load.
  const [actionNames, setActionNames] = useState<string[]>([]);
  useEffect(() => {
    if (page) setActionNames(page.actionNames);
  }, [page]);
  // The form's own errors (a date range the wrong way round, a failed download).
  const submit = useSubmit<'download'>();
  const error = submit.error ?? actions.error?.message ?? null;

  /** Another page or other filters: the form's last error goes. */
  function go(nextTrail: (string | null)[], nextCursor: string | null) {
    submit.reset();
    setTrail(nextTrail);
    setCursor(nextCursor);
  }

  function apply(event: FormEvent) {
    event.preventDefault();
    if (draft.from && draft.to && draft.from > draft.to) return submit.fail('The start date must be on or before the end date.');
    // The same filters again read the first page again.
    const again = cursor === null && JSON.stringify(draft) === JSON.stringify(filters);
    go([], null);
    setFilters({ ...draft });
    if (again) void actions.refetch();
  }

  const download = () =>
    submit.run(
      async () => {
        const { blob, fileName } = await staffActionsCsv(filters);
        const url = URL.createObjectURL(blob);
        const link = document.createElement('a');
        link.href = url;
        link.download = fileName;
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(url), 1000);
      },
      'The file could not be downloaded.',
      'download',
    );

  const set = (key: keyof StaffActionFilters) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: e.target.value }));
  return (
    <section className="card staff-card" aria-labelledby="staff-activity-title">
      <div className="staff-activity__intro">
        <h2 id="staff-activity-title" className="card__title">
          Staff activity
        </h2>
        <p className="staff-activity__sub">
          Every action staff took on customers&apos; and staff accounts, newest first: who did it (maker) and who approved it (checker).
        </p>
      </div>
      <form className="staff-activity__filters" onSubmit={apply} aria-label="Filters">
        <Field label="Staff member (maker or checker)" placeholder="E-mail or id" value={draft.staff} onChange={set('staff')} />
        <Field label="Customer or account" placeholder="E-mail or id" value={draft.customer} onChange={set('customer')} />
        <div className="field">
          <label className="field__label" htmlFor="staff-activity-action">
            Action
          </label>
          <select id="staff-activity-action" className="field__input" value={draft.action} onChange={set('action')}>
            <option value="">All actions</option>
            {actionNames.map((name) => (
              <option key={name} value={name}>
                {staffActionLabel(name)}
              </option>
            ))}
          </select>
        </div>
        <Field label="From" type="date" value={draft.from} onChange={set('from')} hint={formatListDate(draft.from) || undefined} />
        <Field label="To" type="date" value={draft.to} onChange={set('to')} hint={formatListDate(draft.to) || undefined} />
        <div className="staff-activity__buttons">
          <Button type="submit">Apply filters</Button>
          <Button
            type="button"
            variant="secondary"
            loading={submit.busyWith === 'download'}
            loadingText="Preparing..."
            onClick={() => void download()}
          >
            Download CSV
          </Button>
        </div>
      </form>
      {error && <Banner variant="error">{error}</Banner>}
      {!page && !error && <SkeletonRows rows={5} columns={6} label="Loading staff activity" />}
      {page && page.actions.length === 0 && <p className="empty-text">No staff action matches these filters.</p>}
      {page && page.actions.length > 0 && (
        <ScrollArea className="staff-table-wrap" label="Staff activity results">
          <table className="staff-table staff-activity__table table--stack">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Action</th>
                <th scope="col">Maker</th>
                <th scope="col">Checker</th>
                <th scope="col">Account</th>
                <th scope="col">Detail</th>
              </tr>
            </thead>
            <tbody>
              {page.actions.map((a) => (
                <tr key={a.event_id} data-action={a.action}>
                  <td data-label="Time" className="nowrap">
                    {when(a.at)}
                  </td>
                  <td data-label="Action">
                    <span className="staff-activity__action" title={a.action}>
                      {a.action_name}
                    </span>
                  </td>
                  <td data-label="Maker">
                    <Person id={a.maker_id} name={a.maker_name} email={a.maker_email} role={a.maker_role} />
                  </td>
                  <td data-label="Checker">
                    {a.checker_id ? <Person {...checkerOf(a)} /> : <span className="staff-activity__sub">-</span>}
                  </td>
                  <td data-label="Account">{a.customer_email ?? a.customer_id ?? <span className="staff-activity__sub">-</span>}</td>
                  <td data-label="Detail">{a.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollArea>
      )}
      <div className="staff-activity__pager">
        <Button variant="secondary" disabled={trail.length === 0} onClick={() => go(trail.slice(0, -1), trail[trail.length - 1] ?? null)}>
          Newer
        </Button>
        <Button variant="secondary" disabled={!page?.nextCursor} onClick={() => go([...trail, cursor], page?.nextCursor ?? null)}>
          Older
        </Button>
      </div>
    </section>
  );
}
