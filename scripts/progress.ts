/** A progress bar on stderr for long operator commands; plain periodic lines when not a terminal. */
export function progressBar(label: string, total: number | null, opts: { quiet?: boolean } = {}) {
  const tty = process.stderr.isTTY && !opts.quiet;
  const t0 = performance.now();
  let lastLine = 0;
  let lastPct = -1;
  const rate = (n: number) => Math.round(n / Math.max((performance.now() - t0) / 1000, 1e-3));
  const fmt = (n: number) => n.toLocaleString('en-US');
  return {
    update(done: number) {
      if (opts.quiet) return;
      const pct = total ? Math.min(100, Math.floor((done / total) * 100)) : null;
      if (tty) {
        const now = performance.now();
        if (now - lastLine < 100 && done !== total) return;
        lastLine = now;
        const width = 30;
        const filled = pct === null ? 0 : Math.round((pct / 100) * width);
        const bar = pct === null ? '' : `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(pct).padStart(3)}% `;
        process.stderr.write(`\r${label} ${bar}${fmt(done)}${total ? `/${fmt(total)}` : ''} events, ${fmt(rate(done))} events/s   `);
      } else if (pct !== null && pct >= lastPct + 10) {
        lastPct = pct - (pct % 10);
        process.stderr.write(`${label}: ${pct}% (${fmt(done)}/${fmt(total!)} events)\n`);
      }
    },
    finish(done: number): { seconds: number; eventsPerSecond: number } {
      const seconds = (performance.now() - t0) / 1000;
      if (tty) process.stderr.write('\n');
      return { seconds, eventsPerSecond: rate(done) };
    },
  };
}
