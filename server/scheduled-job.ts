import { schedule, type ScheduledTask } from 'node-cron';

/**
 * A job the app runs on a node-cron schedule (the daily seal, the stake payouts): runs never
 * overlap (a run asked for while one is going joins it), nothing runs once stopped, and `stop`
 * waits for the run in progress, so the app's close never cuts one in half.
 */
export class ScheduledJob<T> {
  private task: ScheduledTask | null = null;
  private running: Promise<T> | null = null;
  private stopped = false;

  /**
   * @param job one run; `idle` is what a run asked for after `stop` answers.
   * @param onTick what each tick does with a run (log its failure; a tick must not throw).
   */
  constructor(
    private readonly options: { name: string; cron: string; timezone?: string },
    private readonly job: () => Promise<T>,
    private readonly idle: T,
    private readonly onTick: (run: () => Promise<T>) => Promise<unknown>,
  ) {}

  /** Whether `stop` was called: a failure after it (the database already shut) is no failure. */
  get isStopped(): boolean {
    return this.stopped;
  }

  /** Starts the ticks (once; not after `stop`). */
  schedule(): void {
    if (this.task || this.stopped) return;
    const { name, cron, timezone } = this.options;
    this.task = schedule(cron, () => void this.onTick(() => this.run()), { noOverlap: true, name, ...(timezone ? { timezone } : {}) });
  }

  /** One run now, or the one in progress. */
  run(): Promise<T> {
    if (this.stopped) return Promise.resolve(this.idle);
    this.running ??= this.job().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** No more ticks; waits for the run in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    const task = this.task;
    this.task = null;
    if (task) {
      await task.stop();
      await task.destroy();
    }
    await this.running?.catch(() => {});
  }
}
