/**
 * Subscriptions: timers an app asks for as a function of its model (`subscriptions(model)`), started
 * and stopped as the model changes. Each tick dispatches its message under the session's mutex.
 */
import type { JsonValue } from "../../../json.ts";
import { repeatUnref } from "../../../runtime/timers.ts";

/** A subscription: dispatch `msg` with `args` every `every` milliseconds while `subscriptions` returns it. */
export type Sub = {
  /** The interval, in milliseconds. */
  readonly every: number;
  /** The message each tick dispatches. */
  readonly msg: string;
  /** The message's arguments. */
  readonly args: readonly JsonValue[];
};

/**
 * A timer subscription: every `ms` milliseconds, dispatch `msg` with `args` to the session's
 * `update`, for as long as the definition's `subscriptions(model)` returns it. A subscription that
 * stays the same across models keeps running; one that goes away stops (docs/live-apps.md).
 *
 * @param ms the interval, at least 1 ms
 * @throws {TypeError} for an interval under 1 ms
 * @example
 * ```ts
 * import { Live, Ui } from "svc-live";
 *
 * type Model = { running: boolean; seconds: number };
 * export const stopwatch = Live.app<Model>({
 *   init: () => ({ running: false, seconds: 0 }),
 *   update: (model, msg) =>
 *     msg === "Tick" ? { ...model, seconds: model.seconds + 1 } : msg === "Toggle" ? { ...model, running: !model.running } : model,
 *   view: (model) => Ui.h("button", { onClick: "Toggle" }, `${model.seconds} s`),
 *   // Ticks only while running.
 *   subscriptions: (model) => (model.running ? [Live.every(1000, "Tick")] : []),
 * });
 * ```
 */
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
