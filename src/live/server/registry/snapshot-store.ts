/**
 * The session store: each session's durable snapshot (docs/protocol.md#sequence-numbers;
 * docs/auth.md#live-sessions-and-the-gate: "its durable snapshot"). In memory now; the interface is what a shared
 * store (for several replicas) implements. Running effects (timers, streams) never live here.
 */
import type { SessionSnapshot } from "../session/state.ts";

export type { SessionSnapshot };

/** Where sessions' durable snapshots live; in memory by default, Postgres for several replicas (docs/deployment.md). */
export interface SessionStore {
  /** The snapshot kept under `id`, or undefined. */
  load(id: string): Promise<SessionSnapshot | undefined>;
  /** Keeps a session's snapshot, replacing the one before; a dead id's is not kept. */
  save(snapshot: SessionSnapshot): Promise<void>;
  /** Forgets the snapshot under `id`. */
  delete(id: string): Promise<void>;
  /** Marks an id dead: it is never revived, and a cookie naming it gets a fresh session. */
  kill(id: string): Promise<void>;
  /** Whether `id` was killed. */
  isDead(id: string): Promise<boolean>;
}

/** How long a killed id stays on the dead list; past that it is simply unknown, which is as dead. */
const DEAD_ID_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The session store of one process: a `SessionStore` in memory, for the `store` option of
 * `Live.app` (an app's own record of its sessions, or a test's).
 */
export class MemorySessionStore implements SessionStore {
  private readonly snapshots = new Map<string, SessionSnapshot>();
  /** Killed ids and when they stop needing a record (insertion order is expiry order). */
  private readonly dead = new Map<string, number>();

  /**
   * The snapshot kept under `id`, or undefined.
   *
   * @example
   * ```ts
   * import { MemorySessionStore } from "svc-live";
   *
   * const store = new MemorySessionStore();
   * await store.save({ id: "s1", model: { count: 3 }, outSeq: 4, inputSeqs: [], user: undefined, boundAt: 0, updatedAt: Date.now() });
   * const snapshot = await store.load("s1");
   * console.log(snapshot?.model); // { count: 3 }
   * ```
   */
  async load(id: string): Promise<SessionSnapshot | undefined> {
    return this.snapshots.get(id);
  }
  /**
   * Keeps a session's snapshot, replacing the one before, unless its id was killed.
   *
   * @example
   * ```ts
   * import { MemorySessionStore } from "svc-live";
   *
   * const store = new MemorySessionStore();
   * await store.save({ id: "s1", model: { count: 1 }, outSeq: 1, inputSeqs: [], user: "42", boundAt: Date.now(), updatedAt: Date.now() });
   * console.log(store.size); // 1
   * ```
   */
  async save(snapshot: SessionSnapshot): Promise<void> {
    if (!this.dead.has(snapshot.id)) this.snapshots.set(snapshot.id, snapshot);
  }
  /**
   * Forgets the snapshot under `id` (the session ended; the id may be used again).
   *
   * @example
   * ```ts
   * import { MemorySessionStore } from "svc-live";
   *
   * const store = new MemorySessionStore();
   * await store.delete("s1");
   * console.log(await store.load("s1")); // undefined
   * ```
   */
  async delete(id: string): Promise<void> {
    this.snapshots.delete(id);
  }
  /**
   * Forgets the snapshot and keeps `id` on the dead list for a day: a cookie that still names it
   * gets a fresh session, never this one's model.
   *
   * @example
   * ```ts
   * import { MemorySessionStore } from "svc-live";
   *
   * const store = new MemorySessionStore();
   * await store.kill("s1");
   * console.log(await store.isDead("s1")); // true
   * ```
   */
  async kill(id: string): Promise<void> {
    this.snapshots.delete(id);
    this.dead.set(id, Date.now() + DEAD_ID_TTL_MS);
    for (const [oldest, until] of this.dead) {
      if (until > Date.now()) break;
      this.dead.delete(oldest);
    }
  }
  /**
   * Whether `id` was killed within the last day.
   *
   * @example
   * ```ts
   * import { MemorySessionStore } from "svc-live";
   *
   * const store = new MemorySessionStore();
   * console.log(await store.isDead("never-killed")); // false
   * ```
   */
  async isDead(id: string): Promise<boolean> {
    return (this.dead.get(id) ?? 0) > Date.now();
  }
  /** How many snapshots are kept. */
  get size(): number {
    return this.snapshots.size;
  }
}
