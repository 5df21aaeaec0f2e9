/**
 * The per-session mutex (docs/protocol.md#sequence-numbers): event requests, background
 * command completions and subscription ticks of one session run one at a time, in arrival order,
 * so outSeq stamps and model updates never interleave.
 *
 * A free mutex runs the work at once, in the caller's turn: an event, the hot path, then pays no
 * promise chain and no extra microtask (most work is synchronous: dispatch, render, diff). Work
 * that arrives while the mutex is held, including work started from inside the holder, waits
 * for everything before it.
 */
export class Mutex {
  /** Settles when the last work taken so far has finished. */
  private tail: Promise<unknown> = Promise.resolve();
  /** Works taken and not finished (running or waiting). */
  private held = 0;

  run<T>(work: () => T | Promise<T>): Promise<T> {
    let value: T | Promise<T>;
    try {
      value = this.runNow(work);
    } catch (error) {
      return Promise.reject(error);
    }
    return isThenable(value) ? value : Promise.resolve(value);
  }

  /**
   * `run` for a caller that takes a value as readily as a promise: synchronous work on a free
   * mutex hands back its value itself (and a throw of it is thrown here), with no promise made
   * and no microtask to wait for; otherwise the promise `run` gives.
   */
  runNow<T>(work: () => T | Promise<T>): T | Promise<T> {
    if (this.held > 0) return this.queue(work);
    this.held++;
    let value: T | Promise<T>;
    try {
      value = work();
    } catch (error) {
      this.held--;
      throw error;
    }
    if (!isThenable(value)) {
      this.held--;
      return value;
    }
    // Asynchronous work holds the mutex until it settles.
    return this.holdUntil(Promise.resolve(value));
  }

  private queue<T>(work: () => T | Promise<T>): Promise<T> {
    this.held++;
    return this.holdUntil(this.tail.then(work));
  }

  /**
   * The chain continues once `result` settles, whatever its outcome. The release is made here, on
   * the rare asynchronous path, rather than kept per mutex: every session has one.
   */
  private holdUntil<T>(result: Promise<T>): Promise<T> {
    const release = (): void => {
      this.held--;
    };
    this.tail = result.then(release, release);
    return result;
  }
}

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}
