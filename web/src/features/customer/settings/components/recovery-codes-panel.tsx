import { Button } from '@/components/button.js';

/** The codes as a small text file the owner keeps, named so it is found again. */
function downloadCodes(codes: string[]): void {
  const text = `wallet-ledger recovery codes\nEach code signs you in once in place of your authenticator app.\n\n${codes.join('\n')}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'wallet-ledger-recovery-codes.txt';
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** Prints the codes panel alone (global.css, `@media print`): the rest of the page stays off paper. */
function printCodes(): void {
  document.body.classList.add('print-codes');
  try {
    window.print();
  } finally {
    document.body.classList.remove('print-codes');
  }
}

/** The ten recovery codes of a new authenticator, shown once (the server keeps only their digests). */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="mfa-panel mfa-codes-print" aria-labelledby="recovery-codes-title">
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
        <Button variant="secondary" onClick={() => downloadCodes(codes)}>
          Download Codes
        </Button>
        <Button variant="secondary" onClick={printCodes}>
          Print Codes
        </Button>
        <Button onClick={onDone}>I Have Saved My Codes</Button>
      </div>
    </div>
  );
}
