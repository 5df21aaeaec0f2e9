/**
 * A pool of bcrypt worker threads sized to the cores, so a cost-12 hash (~300 ms of CPU) never
 * stalls the event loop that serves every live session (docs/auth.md#passwords).
 *
 * Workers start on first use. A worker is referenced only while it runs a job, so an idle pool
 * never keeps the process alive; where the runtime cannot unreference a worker (Deno), an idle
 * worker is stopped after IDLE_STOP_MS instead. A crashed worker fails its job and is replaced.
 */
import { cpuCount } from "../runtime/cpu.ts";
import { onceUnref } from "../runtime/timers.ts";
import { spawnWorker, type ThreadWorker } from "../runtime/worker.ts";
import type { PasswordAnswer, PasswordJob } from "./password-worker.ts";

type JobInput = PasswordJob extends infer J ? (J extends PasswordJob ? Omit<J, "id"> : never) : never;
type Pending = { job: PasswordJob; resolve: (answer: PasswordAnswer) => void };
type Slot = { worker: Promise<ThreadWorker>; current: Pending | undefined; cancelIdleStop?: () => void };

// Beside this module with its extension: .ts when run from the sources, .js from the built dist/.
const workerUrl = import.meta.url.endsWith(".ts")
  ? new URL("./password-worker.ts", import.meta.url)
  : new URL("./password-worker.js", import.meta.url);
const IDLE_STOP_MS = 200;

export class PasswordPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;

  constructor(private readonly size: number = Math.max(1, cpuCount())) {}

  run(input: JobInput): Promise<PasswordAnswer> {
    return new Promise((resolve) => {
      this.queue.push({ job: { ...input, id: this.nextId++ } as PasswordJob, resolve });
      this.dispatch();
    });
  }

  /** Stops every worker; jobs in flight or queued answer with an error. */
  close(): void {
    for (const slot of this.slots.splice(0)) this.retire(slot, "password pool closed");
    for (const pending of this.queue.splice(0)) pending.resolve({ id: pending.job.id, ok: false, message: "password pool closed" });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((candidate) => candidate.current === undefined) ?? this.grow();
      if (slot === undefined) return;
      const pending = this.queue.shift()!;
      slot.current = pending;
      slot.cancelIdleStop?.();
      slot.worker.then(
        (worker) => {
          worker.hold(true);
          worker.post(pending.job);
        },
        (error) => this.crashed(slot, error),
      );
    }
  }

  private grow(): Slot | undefined {
    if (this.slots.length >= this.size) return undefined;
    const slot: Slot = { worker: spawnWorker(workerUrl), current: undefined };
    slot.worker.then(
      (worker) => {
        worker.onMessage((message) => this.answered(slot, worker, message as PasswordAnswer));
        worker.onCrash((error) => this.crashed(slot, error));
      },
      () => undefined, // reported through dispatch, which awaits the same promise
    );
    this.slots.push(slot);
    return slot;
  }

  private answered(slot: Slot, worker: ThreadWorker, answer: PasswordAnswer): void {
    const pending = slot.current;
    slot.current = undefined;
    worker.hold(false);
    if (!worker.canRelease) slot.cancelIdleStop = onceUnref(() => this.stopIdle(slot), IDLE_STOP_MS);
    pending?.resolve(answer);
    this.dispatch();
  }

  private stopIdle(slot: Slot): void {
    if (slot.current !== undefined) return;
    this.remove(slot);
    this.retire(slot, "idle");
  }

  private crashed(slot: Slot, error: unknown): void {
    if (!this.slots.includes(slot)) return;
    this.remove(slot);
    this.retire(slot, `bcrypt worker failed: ${error instanceof Error ? error.message : String(error)}`);
    this.dispatch();
  }

  private remove(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
  }

  private retire(slot: Slot, reason: string): void {
    slot.cancelIdleStop?.();
    const pending = slot.current;
    slot.current = undefined;
    pending?.resolve({ id: pending.job.id, ok: false, message: reason });
    slot.worker.then((worker) => worker.terminate(), () => undefined);
  }
}
