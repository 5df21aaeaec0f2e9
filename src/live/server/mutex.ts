/**
 * The per-session mutex (live-input-authority.md §Session counters): event requests, background
 * command completions and subscription ticks of one session run one at a time, in arrival order,
 * so outSeq stamps and model updates never interleave.
 */
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => T | Promise<T>): Promise<T> {
    const result = this.tail.then(work);
    // The chain continues whatever the outcome of this piece of work.
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
