/**
 * The session store: each session's durable snapshot (docs/protocol.md#sequence-numbers;
 * docs/auth.md#live-sessions-and-the-gate: "its durable snapshot"). In memory now; the interface is what a shared
 * store (for several replicas) implements. Running effects (timers, streams) never live here.
 */
export type SessionSnapshot = {
  readonly id: string;
  readonly model: unknown;
  readonly outSeq: number;
  readonly inputSeqs: ReadonlyArray<readonly [string, number]>;
  /** Per page id, the highest event seq processed (absent in snapshots written before it was kept). */
  readonly pageSeqs?: ReadonlyArray<readonly [string, number]>;
  readonly user: string | undefined;
  readonly boundAt: number;
  readonly updatedAt: number;
};

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

/** The session store of one process. */
export class MemorySessionStore implements SessionStore {
  private readonly snapshots = new Map<string, SessionSnapshot>();
  /** Killed ids and when they stop needing a record (insertion order is expiry order). */
  private readonly dead = new Map<string, number>();

  /** The snapshot kept under `id`, or undefined. */
  async load(id: string): Promise<SessionSnapshot | undefined> {
    return this.snapshots.get(id);
  }
  /** Keeps a session's snapshot, unless its id was killed. */
  async save(snapshot: SessionSnapshot): Promise<void> {
    if (!this.dead.has(snapshot.id)) this.snapshots.set(snapshot.id, snapshot);
  }
  /** Forgets the snapshot under `id`. */
  async delete(id: string): Promise<void> {
    this.snapshots.delete(id);
  }
  /** Forgets the snapshot and keeps `id` on the dead list for a day. */
  async kill(id: string): Promise<void> {
    this.snapshots.delete(id);
    this.dead.set(id, Date.now() + DEAD_ID_TTL_MS);
    for (const [oldest, until] of this.dead) {
      if (until > Date.now()) break;
      this.dead.delete(oldest);
    }
  }
  /** Whether `id` was killed within the last day. */
  async isDead(id: string): Promise<boolean> {
    return (this.dead.get(id) ?? 0) > Date.now();
  }
  /** How many snapshots are kept. */
  get size(): number {
    return this.snapshots.size;
  }
}
