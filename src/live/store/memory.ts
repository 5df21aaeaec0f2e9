/**
 * The live store of one process (the default without a database): the same ownership rules as
 * the shared store, kept in maps, so one replica behaves as it always has and the rules can be
 * tested without a server. Notices have nowhere to go: there is no other replica.
 */
import {
  type Claim,
  DEAD_KEY_TTL_MS,
  LEASE_MS,
  type LiveStore,
  type Loaded,
  type Ownership,
  type RotatedFrom,
  type RotationFound,
  type StoredRotation,
  type StoredSession,
  type Taken,
} from "./store.ts";

/** `version`: moved on by every write of the row. */
type Row = { session: StoredSession; owner: string | undefined; epoch: number; leaseUntil: number; updatedAt: number; version: number };

export class MemoryLiveStore implements LiveStore {
  readonly shared = false;
  private readonly rows = new Map<string, Row>();
  /** Rotated-away keys within their grace period (docs/protocol.md#session-rotation). */
  private readonly rotations = new Map<string, StoredRotation & { toKey: string; until: number }>();
  /** Killed keys and when they stop needing a record (insertion order is expiry order). */
  private readonly dead = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  async create(session: StoredSession, owner: string): Promise<number> {
    const now = this.now();
    this.rows.set(session.key, { session, owner, epoch: 1, leaseUntil: now + LEASE_MS, updatedAt: now, version: 1 });
    return 1;
  }

  async take(key: string, owner: string): Promise<Taken | undefined> {
    const row = this.rows.get(key);
    if (row === undefined) return undefined;
    const previousOwner = row.owner;
    row.owner = owner;
    row.epoch += 1;
    row.version += 1;
    const now = this.now();
    row.leaseUntil = now + LEASE_MS;
    return { session: row.session, epoch: row.epoch, previousOwner, rotatedFrom: this.rotatedTo(key) };
  }

  private rotatedTo(key: string): RotatedFrom[] {
    const now = this.now();
    return [...this.rotations.values()]
      .filter((r) => r.toKey === key && r.until > now)
      .map((r) => ({ fromHandle: r.fromHandle, fromSealed: r.fromSealed, remainingMs: r.until - now }));
  }

  async load(key: string): Promise<Loaded | undefined> {
    const row = this.rows.get(key);
    if (row === undefined) return undefined;
    return { session: row.session, epoch: row.epoch, owner: row.owner, rotatedFrom: this.rotatedTo(key), version: String(row.version) };
  }

  async save(session: StoredSession, owner: string, epoch: number, _notice?: string, claim?: Claim): Promise<boolean> {
    const row = this.rows.get(session.key);
    if (row === undefined || row.epoch !== epoch) return false;
    if (claim?.version !== undefined && claim.version !== String(row.version)) return false;
    row.version += 1;
    if (claim !== undefined) {
      row.owner = owner;
      row.epoch += 1;
    }
    row.session = session;
    row.updatedAt = this.now();
    row.leaseUntil = row.updatedAt + LEASE_MS;
    return true;
  }

  async release(key: string, owner: string, epoch: number): Promise<void> {
    const row = this.rows.get(key);
    if (row === undefined || row.epoch !== epoch || row.owner !== owner) return;
    row.owner = undefined;
    row.leaseUntil = 0;
    row.version += 1;
  }

  async renew(owner: string): Promise<ReadonlySet<string>> {
    const held = new Set<string>();
    const until = this.now() + LEASE_MS;
    for (const [key, row] of this.rows) {
      if (row.owner !== owner) continue;
      row.leaseUntil = until;
      held.add(key);
    }
    return held;
  }

  async ownership(key: string): Promise<Ownership | undefined> {
    const row = this.rows.get(key);
    if (row === undefined) return undefined;
    const { outSeq, user, boundAt } = row.session;
    return { owner: row.owner, epoch: row.epoch, leaseLive: row.owner !== undefined && row.leaseUntil > this.now(), outSeq, user, boundAt };
  }

  async move(fromKey: string, session: StoredSession, owner: string, rotation?: StoredRotation): Promise<void> {
    // Earlier rotations to the old key lead to the new one (a kill would end them with it).
    for (const earlier of this.rotations.values()) {
      if (earlier.toKey === fromKey) Object.assign(earlier, { toKey: session.key, toSealed: rotation?.toSealed ?? earlier.toSealed });
    }
    this.rows.delete(fromKey);
    this.dead.set(fromKey, this.now() + DEAD_KEY_TTL_MS);
    await this.create(session, owner);
    if (rotation === undefined) return;
    this.rotations.set(fromKey, { ...rotation, toKey: session.key, until: this.now() + rotation.graceMs });
  }

  async rotation(fromKey: string): Promise<RotationFound | undefined> {
    const found = this.rotations.get(fromKey);
    if (found === undefined || found.until <= this.now() || !this.rows.has(found.toKey)) return undefined;
    return { toKey: found.toKey, toSealed: found.toSealed, ticketHash: found.ticketHash };
  }

  async kill(key: string): Promise<void> {
    for (const [from, rotation] of this.rotations) if (rotation.toKey === key) this.rotations.delete(from);
    this.rows.delete(key);
    this.dead.set(key, this.now() + DEAD_KEY_TTL_MS);
  }

  async alive(keys: readonly string[]): Promise<ReadonlySet<string>> {
    return new Set(keys.filter((key) => this.rows.has(key)));
  }

  async isDead(key: string): Promise<boolean> {
    return (this.dead.get(key) ?? 0) > this.now();
  }

  async sweep(idleMs: number): Promise<void> {
    const now = this.now();
    for (const [key, row] of this.rows) if (now - row.updatedAt >= idleMs && row.leaseUntil <= now) this.rows.delete(key);
    for (const [from, rotation] of this.rotations) if (rotation.until <= now) this.rotations.delete(from);
    for (const [key, until] of this.dead) {
      if (until > now) break;
      this.dead.delete(key);
    }
  }

  get size(): number {
    return this.rows.size;
  }
}
