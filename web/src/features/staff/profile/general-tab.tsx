import { useState } from 'react';
import { LOGIN_HISTORY_PAGE_SIZE } from '@ledger/contract/access.js';
import { Banner } from '@/components/banner.js';
import { Button } from '@/components/button.js';
import { Field } from '@/components/field.js';
import { Modal } from '@/components/modal.js';
import { NewPasswordFields } from '@/components/new-password-fields.js';
import { profileApi, type PermissionFlags, type ProfileDetails } from './api/calls.js';
import { LOGINS_FAILED, useLoginHistory, useProfileCommand } from './api/queries.js';
import { SubmitMessages } from '@/components/submit-messages.js';
import { useSubmit } from '@/lib/use-submit.js';
import { serverWords } from '@/lib/error-text.js';
import { useProfile } from './profile-context.js';
import { dateTime } from './use-flash.js';
import { MfaCard } from './mfa-card.js';
import { useSession } from '@/lib/session.js';
import { LoginHistoryPager, LoginHistoryTable } from '@/components/login-history.js';

/** The spec's floor for the button (002: disabled below 6); the rule itself is 8 with a digit. */
const MIN_PASSWORD = 6;
const RULE_LENGTH = 8;

export function kycLabel(status: ProfileDetails['kyc_status'] | undefined): { text: string; tone: string } {
  switch (status) {
    case 'verified':
      return { text: 'Verified', tone: 'green' };
    case 'pending':
      return { text: 'Pending Review', tone: 'yellow' };
    case 'rejected':
      return { text: 'Rejected', tone: 'red' };
    default:
      return { text: 'Not Started', tone: 'grey' };
  }
}

const isBanned = (d: ProfileDetails) => Boolean(d.banned_until && new Date(d.banned_until) > new Date());

/** General tab (spec 002): details, ban/unban, Approve KYC, note, password reset, permissions, login history. */
export function GeneralTab() {
  const { userId, details } = useProfile();
  const role = useSession((s) => s.role);
  if (!details) return <p className="page-status">Loading...</p>;
  return (
    <div className="profile-stack">
      <DetailsCard details={details} userId={userId} />
      <div className="profile-grid">
        <NoteCard userId={userId} details={details} />
        <PasswordCard userId={userId} />
      </div>
      <PermissionsCard userId={userId} details={details} />
      {(role === 'MANAGER' || role === 'ADMIN') && <MfaCard userId={userId} />}
      <LoginHistoryCard userId={userId} />
    </div>
  );
}

type DetailsAction = 'ban' | 'unban' | 'kyc';
const DETAILS_ACTIONS: Record<DetailsAction, { call: (userId: string) => Promise<unknown>; done: string; failed: string }> = {
  ban: { call: profileApi.ban, done: 'User has been banned successfully!', failed: 'Failed to ban user.' },
  unban: { call: profileApi.unban, done: 'User has been unbanned successfully!', failed: 'Failed to unban user.' },
  kyc: { call: profileApi.approveKyc, done: 'KYC approved successfully!', failed: 'Failed to approve KYC.' },
};

function DetailsCard({ details, userId }: { details: ProfileDetails; userId: string }) {
  const [confirm, setConfirm] = useState<'ban' | 'unban' | null>(null);
  const submit = useSubmit<DetailsAction>();
  const command = useProfileCommand(userId, (what: DetailsAction) => DETAILS_ACTIONS[what].call(userId));
  const banned = isBanned(details);
  const kyc = kycLabel(details.kyc_status);

  const run = async (what: DetailsAction) => {
    const { done, failed } = DETAILS_ACTIONS[what];
    await submit.run(
      async () => {
        await command.mutateAsync(what);
        return done;
      },
      failed,
      what,
    );
    setConfirm(null);
  };

  return (
    <section className="card profile-card" aria-labelledby="details-title">
      <h2 id="details-title" className="card__title">
        User Details
      </h2>
      <SubmitMessages submit={submit} />
      <dl className="profile-details">
        <dt>User ID</dt>
        <dd className="mono">{details.user_id}</dd>
        <dt>Email</dt>
        <dd>{details.email}</dd>
        <dt>Profile Created</dt>
        <dd>{dateTime(details.created_at)}</dd>
        <dt>Ban Status</dt>
        <dd>
          {banned ? (
            <span className="pill pill--red">Banned until {dateTime(details.banned_until)}</span>
          ) : (
            <span className="pill pill--green">Not Banned</span>
          )}
        </dd>
        <dt>KYC Status</dt>
        <dd>
          <span className={`pill pill--${kyc.tone}`}>{kyc.text}</span>
        </dd>
      </dl>
      <div className="actions profile-actions">
        {banned ? (
          <Button variant="secondary" onClick={() => setConfirm('unban')}>
            Unban User
          </Button>
        ) : (
          <Button variant="danger" onClick={() => setConfirm('ban')}>
            Ban User
          </Button>
        )}
        <Button onClick={() => void run('kyc')} loading={submit.busyWith === 'kyc'} loadingText="Approving...">
          Approve KYC
        </Button>
      </div>
      <Modal
        open={confirm !== null}
        onClose={() => setConfirm(null)}
        title={confirm === 'ban' ? 'Ban User' : 'Unban User'}
        size="small"
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirm(null)}>
              Cancel
            </Button>
            <Button
              variant={confirm === 'ban' ? 'danger' : 'primary'}
              loading={confirm !== null && submit.busyWith === confirm}
              onClick={() => confirm && void run(confirm)}
            >
              {confirm === 'ban' ? 'Confirm Ban' : 'Confirm Unban'}
            </Button>
          </>
        }
      >
        <p>
          {confirm === 'ban'
            ? `Ban ${details.email}? They are signed out at once and cannot sign in until unbanned.`
            : `Unban ${details.email}? They can sign in again.`}
        </p>
      </Modal>
    </section>
  );
}

function NoteCard({ userId, details }: { userId: string; details: ProfileDetails }) {
  const [note, setNote] = useState(details.dashboard_note ?? '');
  const submit = useSubmit();
  const command = useProfileCommand(userId, (text: string | null) => profileApi.setNote(userId, text));
  const send = () =>
    submit.run(async () => {
      await command.mutateAsync(note.trim() ? note : null);
      return 'Dashboard note updated successfully!';
    }, 'Failed to send dashboard note.');
  return (
    <section className="card profile-card" aria-labelledby="note-title">
      <h2 id="note-title" className="card__title">
        Dashboard Note
      </h2>
      <SubmitMessages submit={submit} />
      <div className="field">
        <label className="field__label" htmlFor="dashboard-note">
          Note shown on the user's dashboard (empty clears it)
        </label>
        <textarea
          id="dashboard-note"
          className="field__input profile-textarea"
          rows={3}
          maxLength={2000}
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
      </div>
      <div className="actions">
        <Button onClick={() => void send()} loading={submit.busy} loadingText="Sending...">
          Send Note
        </Button>
      </div>
    </section>
  );
}

function PasswordCard({ userId }: { userId: string }) {
  const [password, setPassword] = useState('');
  const submit = useSubmit({ successMs: 4000 });
  const command = useProfileCommand(userId, (next: string) => profileApi.resetPassword(userId, next), { refreshDetails: false });
  const send = () => {
    if (!password) return submit.fail('New password cannot be empty.');
    if (password.length < MIN_PASSWORD) return submit.fail('Password must be at least 6 characters long.');
    // The one password rule every path shares (server/auth/password-policy.ts): said before sending.
    if (password.length < RULE_LENGTH) return submit.fail('Password must be at least 8 characters long.');
    if (!/\d/.test(password)) return submit.fail('Password must contain at least one number.');
    void submit.run(async () => {
      await command.mutateAsync(password);
      setPassword('');
      return 'Password reset successfully!';
    }, 'Failed to reset password.');
  };
  return (
    <section className="card profile-card" aria-labelledby="password-title">
      <h2 id="password-title" className="card__title">
        Reset User Password
      </h2>
      <SubmitMessages submit={submit} />
      <NewPasswordFields
        value={password}
        onChange={setPassword}
        hint="At least 8 characters, including at least one number. The user must choose a new password at next sign-in; their sessions end now."
      />
      <div className="actions">
        <Button onClick={send} disabled={password.length < MIN_PASSWORD} loading={submit.busy} loadingText="Updating...">
          Update Password
        </Button>
      </div>
    </section>
  );
}

const TOGGLES: { key: keyof PermissionFlags; label: string }[] = [
  { key: 'can_send', label: 'Can Send' },
  { key: 'can_swap', label: 'Can Swap' },
  { key: 'can_buy', label: 'Can Buy (deposits)' },
  { key: 'can_sell', label: 'Can Sell (withdrawals)' },
  { key: 'can_stake', label: 'Can Stake' },
];

function flagsOf(d: ProfileDetails): PermissionFlags {
  return { can_send: d.can_send, can_swap: d.can_swap, can_buy: d.can_buy, can_sell: d.can_sell, can_stake: d.can_stake };
}

type PermissionsChange = { flags: PermissionFlags; sendNote: string | null; swapNote: string | null };

function PermissionsCard({ userId, details }: { userId: string; details: ProfileDetails }) {
  const [flags, setFlags] = useState<PermissionFlags>(() => flagsOf(details));
  const [sendNote, setSendNote] = useState(details.send_disabled_note ?? '');
  const [swapNote, setSwapNote] = useState(details.swap_disabled_note ?? '');
  const [unsaved, setUnsaved] = useState(false);
  const submit = useSubmit();
  const command = useProfileCommand(userId, (c: PermissionsChange) =>
    profileApi.updatePermissions(userId, c.flags, c.sendNote, c.swapNote),
  );

  const toggle = (key: keyof PermissionFlags) => {
    setFlags((f) => {
      const next = { ...f, [key]: !f[key] };
      // Turning send or swap back on clears its reason.
      if (key === 'can_send' && next.can_send) setSendNote('');
      if (key === 'can_swap' && next.can_swap) setSwapNote('');
      return next;
    });
    setUnsaved(true);
  };

  // On a failure the toggles stay as the staff member set them.
  const save = () =>
    submit.run(async () => {
      await command.mutateAsync({
        flags,
        sendNote: flags.can_send ? null : sendNote.trim() || null,
        swapNote: flags.can_swap ? null : swapNote.trim() || null,
      });
      setUnsaved(false);
      return 'Permissions updated successfully!';
    }, 'Failed to update permissions.');

  return (
    <section className="card profile-card" aria-labelledby="permissions-title">
      <h2 id="permissions-title" className="card__title">
        Permission Settings {unsaved && <span className="pill pill--yellow">Unsaved changes</span>}
      </h2>
      <SubmitMessages submit={submit} />
      <ul className="profile-toggles">
        {TOGGLES.map((t) => (
          <li key={t.key}>
            <label className="profile-toggle">
              <input type="checkbox" role="switch" checked={flags[t.key]} onChange={() => toggle(t.key)} />
              <span>{t.label}</span>
              <span className={flags[t.key] ? 'pill pill--green' : 'pill pill--red'}>{flags[t.key] ? 'On' : 'Off'}</span>
            </label>
            {t.key === 'can_send' && !flags.can_send && (
              <Field
                label="Send disabled note (shown to the user)"
                value={sendNote}
                maxLength={500}
                onChange={(e) => {
                  setSendNote(e.target.value);
                  setUnsaved(true);
                }}
              />
            )}
            {t.key === 'can_swap' && !flags.can_swap && (
              <Field
                label="Swap disabled note (shown to the user)"
                value={swapNote}
                maxLength={500}
                onChange={(e) => {
                  setSwapNote(e.target.value);
                  setUnsaved(true);
                }}
              />
            )}
          </li>
        ))}
      </ul>
      <div className="actions">
        <Button onClick={() => void save()} loading={submit.busy} loadingText="Saving...">
          Save Permissions
        </Button>
      </div>
    </section>
  );
}

function LoginHistoryCard({ userId }: { userId: string }) {
  const [page, setPage] = useState(1);
  const logins = useLoginHistory(userId, page, LOGIN_HISTORY_PAGE_SIZE);
  const rows = logins.data ?? null;
  const error = logins.error ? serverWords(logins.error, LOGINS_FAILED) : null;
  return (
    <section className="card profile-card" aria-labelledby="logins-title">
      <h2 id="logins-title" className="card__title">
        Login History
      </h2>
      {error && <Banner variant="error">{error}</Banner>}
      {!rows && !error && <p className="page-status">Loading...</p>}
      {rows && rows.length === 0 && page === 1 && <p className="empty-text">No login history found.</p>}
      {rows && (rows.length > 0 || page > 1) && <LoginHistoryTable rows={rows} when={dateTime} look="profile" />}
      <LoginHistoryPager
        page={page}
        onPageChange={setPage}
        previousDisabled={page <= 1}
        nextDisabled={!rows || rows.length < LOGIN_HISTORY_PAGE_SIZE}
      />
    </section>
  );
}
