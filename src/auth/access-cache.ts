/**
 * The per-process cache of SVC_LIVE_REVOCATION_CACHE_TTL (docs/auth.md#limits).
 *
 * It holds a user's row of the access table (revoked_at, disabled_at), not a verdict, so one
 * entry answers for tokens of any issue time. An entry lives ttl milliseconds by the handle's
 * clock. A revoke, disable or enable made through this process drops that user's entry from every
 * cache in the process at once, and a read that was in flight across such a write is not stored,
 * so it cannot put the old row back. Other replicas' writes are seen when the entry ages out.
 */

export type AccessRow = { readonly revokedAt: number | undefined; readonly disabledAt: number | undefined };

/** Bounds memory under many distinct users; the oldest entry goes first. */
const MAX_ENTRIES = 10_000;

const everyCache = new Set<WeakRef<AccessCache>>();

export class AccessCache {
  readonly #entries = new Map<string, { row: AccessRow; at: number }>();
  #writes = 0;

  constructor(
    readonly ttlMs: number,
    readonly clock: () => number,
  ) {
    everyCache.add(new WeakRef(this));
  }

  get(userId: string): AccessRow | undefined {
    const entry = this.#entries.get(userId);
    if (entry === undefined) return undefined;
    if (this.clock() - entry.at < this.ttlMs) return entry.row;
    this.#entries.delete(userId);
    return undefined;
  }

  /** A token to pass to set(): the count of writes seen when the read began. */
  get writes(): number {
    return this.#writes;
  }

  set(userId: string, row: AccessRow, writesAtRead: number): void {
    if (writesAtRead !== this.#writes) return;
    this.#entries.delete(userId);
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(userId, { row, at: this.clock() });
  }

  drop(userId: string): void {
    this.#writes += 1;
    this.#entries.delete(userId);
  }

  /** Drops every entry; a read in flight is not stored either. */
  clear(): void {
    this.#writes += 1;
    this.#entries.clear();
  }
}

/**
 * Drops every entry from every cache in this process, for when access changes may have been
 * missed (a replica's notification connection was down: src/live/store/postgres-bus.ts).
 */
export function dropAllEverywhere(): void {
  for (const ref of everyCache) {
    const cache = ref.deref();
    if (cache === undefined) everyCache.delete(ref);
    else cache.clear();
  }
}

/** Drops a user's entry from every cache in this process (any handle, any database). */
export function dropEverywhere(userId: string): void {
  for (const ref of everyCache) {
    const cache = ref.deref();
    if (cache === undefined) everyCache.delete(ref);
    else cache.drop(userId);
  }
}
