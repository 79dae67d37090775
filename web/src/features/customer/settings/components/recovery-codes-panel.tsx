import { Button } from '@/components/button.js';

/** The ten recovery codes of a new authenticator, shown once (the server keeps only their digests). */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="mfa-panel" aria-labelledby="recovery-codes-title">
      <p id="recovery-codes-title" className="mfa-method__name">
        Your recovery codes
      </p>
      <p>
        Save these codes somewhere safe. If you lose your authenticator app, each code signs you in once in its place. They are shown only
        now.
      </p>
      <ul className="mfa-recovery-codes mono" data-testid="recovery-codes">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="mfa-panel__actions">
        <Button variant="secondary" onClick={() => void navigator.clipboard?.writeText(codes.join('\n')).catch(() => undefined)}>
          Copy Codes
        </Button>
        <Button onClick={onDone}>I Have Saved My Codes</Button>
      </div>
    </div>
  );
}
