/**
 * A persistent map: `with` and `without` answer a new version in constant time and leave the one
 * they were called on as it was, where copying a Map to change one entry costs its whole size.
 *
 * Why: a session's state is replaced, never changed in place (src/live/server/session/state.ts),
 * and it holds a seq per input the tab has typed into. Copying that map on every keystroke made an
 * event cost in proportion to the inputs a tab had touched (docs/deployment.md#cost-per-event).
 *
 * How (the rerooting technique for persistent arrays): one native Map holds the entries of one
 * version, the one read last; every other version holds how it differs from a neighbour, one entry
 * each. A session reads and updates its newest state, so its reads are a Map's. Reading an older
 * version (a step that fails carries on with the state before it) first walks the differences back
 * to it, turning the map into that version's, one entry per step, and leaves the newer versions
 * holding the differences instead.
 *
 * Iteration order is insertion order, as a Map's, except that an entry a later version removed
 * comes back last when an older version is read again.
 */

/** How a version differs from `toward`: `key` held `value` here (or nothing, when `had` is false). */
type Difference<K, V> = {
  readonly toward: VersionedMap<K, V>;
  readonly key: K;
  readonly had: boolean;
  readonly value: V | undefined;
};

/** Entries copied into a new map or moved by a walk between versions, for the tests that check an event's work. */
export const versionedMapWork = { count: 0 };

export class VersionedMap<K, V> implements ReadonlyMap<K, V> {
  private held: Map<K, V> | Difference<K, V>;

  private constructor(held: Map<K, V>) {
    this.held = held;
  }

  /** A map of `entries`, copied. */
  static of<K, V>(entries: Iterable<readonly [K, V]> = []): VersionedMap<K, V> {
    const map = new Map(entries);
    versionedMapWork.count += map.size;
    return new VersionedMap(map);
  }

  /** A version with `key` set to `value`; this one when it already is. */
  with(key: K, value: V): VersionedMap<K, V> {
    const map = this.versionMap();
    const had = map.has(key);
    const was = map.get(key);
    if (had && was === value) return this;
    // An empty version may be shared by many owners (a constant's): the new one starts its own map.
    if (map.size === 0) return new VersionedMap(new Map([[key, value]]));
    const next = new VersionedMap<K, V>(map);
    this.held = { toward: next, key, had, value: was };
    map.set(key, value);
    return next;
  }

  /** A version without `key`; this one when it has none. */
  without(key: K): VersionedMap<K, V> {
    const map = this.versionMap();
    if (!map.has(key)) return this;
    const next = new VersionedMap<K, V>(map);
    this.held = { toward: next, key, had: true, value: map.get(key) };
    map.delete(key);
    return next;
  }

  get size(): number {
    return this.versionMap().size;
  }

  get(key: K): V | undefined {
    return this.versionMap().get(key);
  }

  has(key: K): boolean {
    return this.versionMap().has(key);
  }

  // Iteration reads a copy of the entries: reading another version while iterating this one
  // would change the map under the loop.
  entries(): MapIterator<[K, V]> {
    return [...this.versionMap()].values();
  }

  keys(): MapIterator<K> {
    return [...this.versionMap().keys()].values();
  }

  values(): MapIterator<V> {
    return [...this.versionMap().values()].values();
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }

  /** The native map holding this version's entries: walked back to this version first when another holds it. */
  private versionMap(): Map<K, V> {
    const held = this.held;
    if (held instanceof Map) return held;
    // The versions from this one to the holder of the map, this one first.
    const path: VersionedMap<K, V>[] = [this];
    let at = held.toward;
    while (!(at.held instanceof Map)) {
      path.push(at);
      at = at.held.toward;
    }
    const map = at.held;
    // Nearest the holder first: each step hands the map one version back, and leaves the version
    // it came from the difference that undoes the step.
    for (let i = path.length - 1; i >= 0; i--) {
      const version = path[i]!;
      const step = version.held as Difference<K, V>;
      step.toward.held = { toward: version, key: step.key, had: map.has(step.key), value: map.get(step.key) };
      if (step.had) map.set(step.key, step.value as V);
      else map.delete(step.key);
      version.held = map;
    }
    versionedMapWork.count += path.length;
    return map;
  }
}
