/**
 * Group commit for appends: small appends made while earlier ones are on their way to the
 * database wait, and go together in one statement (one round trip, one transaction, one
 * commit).
 *
 * Each append keeps its own stream, expectation and outcome: one whose expectation fails
 * gets no row back and the others in its batch are written. A batch never holds two appends
 * of one stream, and no stream is in two batches in flight at once, so the batches of one
 * process never wait for each other's row locks. When a batch statement fails as a whole (a
 * duplicate event id, a deadlock with another process), nothing of it was written, and each
 * of its appends runs again on its own, to get its own answer.
 *
 * Waiting appends go as soon as fewer than `maxInFlight` batches are in flight; appends that
 * went alone do not hold them back. Some appends go at once, alone, as they would without
 * this: any append while nothing is in flight (no append waits for a timer), a large one
 * (its rows cost more than its round trip, and batches in flight are few), and one to a
 * stream already in flight or waiting (writers racing for one stream find out at once which
 * of them won, in parallel, not one after the other; a hot stream does not hold the others'
 * appends back). Such an append locks one stream only, so it cannot close a cycle of lock
 * waits.
 */
export interface Append {
  streamId: string;
  events: readonly unknown[];
}

interface Waiting<R> {
  resolve: (row: R | undefined) => void;
  reject: (error: unknown) => void;
}

export interface BatcherOptions {
  /** Batch statements in flight at once; appends wait while this many are. */
  maxInFlight: number;
  /** Appends in one statement. */
  maxBatch: number;
  /** Appends of more events than this go alone. */
  maxBatchedEvents: number;
}

export class AppendBatcher<A extends Append, R> {
  private readonly queue: (Waiting<R> & A)[] = [];
  /** Appends in flight (batched or alone) and waiting, by stream. */
  private readonly busy = new Map<string, number>();
  /** Statements in flight, batches and appends alone. */
  private statements = 0;
  /** Batch statements in flight (of the waiting appends). */
  private batches = 0;

  constructor(
    /** Runs appends of distinct streams in one statement; the rows by stream, none for a failed expectation. */
    private readonly write: (appends: A[]) => Promise<Map<string, R>>,
    private readonly options: BatcherOptions,
  ) {}

  /** The append's row; undefined when its expectation failed. */
  run(append: A): Promise<R | undefined> {
    const alone = this.statements === 0 || append.events.length > this.options.maxBatchedEvents || this.busy.has(append.streamId);
    this.hold(append.streamId);
    if (alone) return this.runAlone(append).finally(() => this.release(append.streamId));
    return new Promise<R | undefined>((resolve, reject) => {
      this.queue.push({ ...append, resolve, reject });
      this.flush();
    });
  }

  private hold(streamId: string): void {
    this.busy.set(streamId, (this.busy.get(streamId) ?? 0) + 1);
  }

  private release(streamId: string): void {
    const n = this.busy.get(streamId)! - 1;
    if (n === 0) this.busy.delete(streamId);
    else this.busy.set(streamId, n);
  }

  private async runAlone(append: A): Promise<R | undefined> {
    this.statements++;
    try {
      return (await this.write([append])).get(append.streamId);
    } finally {
      this.statements--;
    }
  }

  private flush(): void {
    while (this.batches < this.options.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.batches++;
      this.statements++;
      void this.send(batch).finally(() => {
        for (const a of batch) this.release(a.streamId);
        this.batches--;
        this.statements--;
        this.flush();
      });
    }
  }

  private async send(batch: (Waiting<R> & A)[]): Promise<void> {
    let rows: Map<string, R>;
    try {
      rows = await this.write(batch);
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      // Nothing of the batch was written: each append again on its own, for its own answer.
      await Promise.all(batch.map((a) => this.send([a])));
      return;
    }
    for (const a of batch) a.resolve(rows.get(a.streamId));
  }
}
