/**
 * Subscriptions: timers an app asks for as a function of its model (`subscriptions(model)`), started
 * and stopped as the model changes. Each tick dispatches its message under the session's mutex.
 */
import type { JsonValue } from "../../../json.ts";
import { repeatUnref } from "../../../runtime/timers.ts";

/** A subscription: dispatch `msg` with `args` every `every` milliseconds while `subscriptions` returns it. */
export type Sub = { readonly every: number; readonly msg: string; readonly args: readonly JsonValue[] };

/** Every `ms` milliseconds, dispatch `msg` with `args`. */
export function every(ms: number, msg: string, ...args: JsonValue[]): Sub {
  if (!Number.isFinite(ms) || ms < 1) throw new TypeError("Live.every: the interval must be at least 1 ms");
  return { every: ms, msg, args };
}

const keyOf = (sub: Sub) => `${sub.every}|${sub.msg}|${JSON.stringify(sub.args)}`;

/** The running timers of one session. */
export class SubscriptionSet {
  private readonly running = new Map<string, () => void>();

  constructor(private readonly tick: (sub: Sub) => void) {}

  /** Starts the subscriptions that are new, stops the ones that are gone; unchanged ones keep running. */
  reconcile(wanted: readonly Sub[]): void {
    const next = new Map(wanted.map((sub) => [keyOf(sub), sub]));
    for (const [key, stop] of this.running) {
      if (!next.has(key)) {
        stop();
        this.running.delete(key);
      }
    }
    for (const [key, sub] of next) {
      if (!this.running.has(key)) this.running.set(key, repeatUnref(() => this.tick(sub), sub.every));
    }
  }

  get size(): number {
    return this.running.size;
  }

  stopAll(): void {
    for (const stop of this.running.values()) stop();
    this.running.clear();
  }
}
