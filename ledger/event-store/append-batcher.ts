/**
 * Group commit for appends: appends made while earlier ones are on their way to the database
 * wait, and go together in one statement (one round trip, one transaction, one commit).
 *
 * Each append keeps its own stream, expectation and outcome: one whose expectation fails
 * gets no row back and the others in its batch are written. A batch never holds two appends
 * of one stream, and no stream is in two batches in flight at once, so the batches of one
 * process never wait for each other's row locks. When a batch statement fails as a whole (a
 * duplicate event id, a deadlock with another process), nothing of it was written, and each
 * of its appends runs again on its own, to get its own answer.
 *
 * With nothing in flight an append goes at once, alone: no append waits for a timer.
 */
export interface Append<E> {
  streamId: string;
  events: E[];
}

interface Waiting<E, R> extends Append<E> {
  resolve: (row: R | null) => void;
  reject: (error: unknown) => void;
}

export interface BatcherOptions {
  /** Batch statements in flight at once. */
  maxInFlight: number;
  /** Appends in one statement. */
  maxBatch: number;
}

export class AppendBatcher<E, A extends Append<E>, R> {
  private readonly queue: (Waiting<E, R> & A)[] = [];
  /** Streams with an append in a batch in flight. */
  private readonly busy = new Set<string>();
  private inFlight = 0;

  constructor(
    /** Runs one append; null when its expectation failed. */
    private readonly runOne: (append: A) => Promise<R | null>,
    /** Runs several appends of distinct streams in one statement; the rows by stream, none for a failed expectation. */
    private readonly runMany: (appends: A[]) => Promise<Map<string, R>>,
    private readonly options: BatcherOptions,
  ) {}

  run(append: A): Promise<R | null> {
    return new Promise<R | null>((resolve, reject) => {
      this.queue.push({ ...append, resolve, reject });
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < this.options.maxInFlight && this.queue.length > 0) {
      const batch = this.take();
      if (batch.length === 0) return; // every waiting append's stream is in flight
      this.inFlight++;
      for (const a of batch) this.busy.add(a.streamId);
      void this.send(batch).finally(() => {
        for (const a of batch) this.busy.delete(a.streamId);
        this.inFlight--;
        this.flush();
      });
    }
  }

  /** The oldest waiting appends, one per stream, none of a stream in flight, in arrival order. */
  private take(): (Waiting<E, R> & A)[] {
    const batch: (Waiting<E, R> & A)[] = [];
    const streams = new Set<string>();
    for (let i = 0; i < this.queue.length && batch.length < this.options.maxBatch; ) {
      const a = this.queue[i]!;
      if (this.busy.has(a.streamId) || streams.has(a.streamId)) {
        i++;
        continue;
      }
      streams.add(a.streamId);
      batch.push(a);
      this.queue.splice(i, 1);
    }
    return batch;
  }

  private async send(batch: (Waiting<E, R> & A)[]): Promise<void> {
    if (batch.length === 1) return this.alone(batch[0]!);
    let rows: Map<string, R>;
    try {
      rows = await this.runMany(batch);
    } catch {
      // Nothing of the batch was written: each append again on its own, for its own answer.
      await Promise.all(batch.map((a) => this.alone(a)));
      return;
    }
    for (const a of batch) a.resolve(rows.get(a.streamId) ?? null);
  }

  private async alone(a: Waiting<E, R> & A): Promise<void> {
    try {
      a.resolve(await this.runOne(a));
    } catch (error) {
      a.reject(error);
    }
  }
}
