/**
 * The session registry's bookkeeping for sessions shared between replicas on Postgres
 * (docs/deployment.md#several-replicas).
 *
 * Why it exists: with several replicas, any of them may take a session over from the shared
 * store, and what the others say about it arrives by store key, not by cookie id (the bus's
 * "taken" and "ended" notices, a lease renewal that no longer lists a key). So the registry needs
 * the shared store and how to build a session taken over from it, the takeovers in progress, which
 * of its sessions it holds under which key, and what to do with a local copy another replica took
 * or ended. That is this module; src/live/server/registry/registry.ts keeps the table of sessions and their
 * lifecycle, shared or not.
 */
import type { LiveSession } from "../session/session.ts";
import type { SharedSessions } from "./shared-sessions.ts";
import { type BuildSession, type Resolved, type TakeoverParts, Takeovers } from "./takeover.ts";

/** What the sharing needs of the registry. */
export type SharingParts<Model> = {
  /** The sessions held here. */
  readonly sessions: () => Iterable<LiveSession<Model>>;
  /** Set by drain: no takeover on this replica. */
  readonly draining: () => boolean;
  /** Holds a session taken over from the shared store (src/live/server/replicas/takeover.ts) from now on. */
  readonly adopt: TakeoverParts<Model>["adopt"];
  /** The session now runs at another replica: the copy here stops; its streams keep listening here. */
  readonly moved: (session: LiveSession<Model>) => void;
  /** Forgets a local copy: out of the table of sessions, the tree budget and the bounds. */
  readonly forgetLocal: (session: LiveSession<Model>) => void;
};

export class RegistrySharing<Model> {
  /** The shared store of several replicas; undefined: this process only. */
  shared: SharedSessions<Model> | undefined;
  private build: BuildSession<Model> | undefined;
  /** Takeovers in progress, by cookie id, so concurrent requests for one session share one. */
  private readonly takeovers: Takeovers<Model>;

  constructor(private readonly parts: SharingParts<Model>) {
    this.takeovers = new Takeovers({
      shared: () => this.shared!,
      build: () => this.build!,
      draining: () => parts.draining(),
      adopt: (id, session, handle, rotatedFrom) => parts.adopt(id, session, handle, rotatedFrom),
    });
  }

  /** Shares the registry's sessions through a store several replicas use. */
  attach(shared: SharedSessions<Model>, build: BuildSession<Model>): void {
    this.shared = shared;
    this.build = build;
    shared.heldKeys = () => this.heldKeys();
  }

  /** The session held here under its store key, for what the bus and lease renewal say about keys. */
  byKey(key: string): LiveSession<Model> | undefined {
    return this.shared?.sessionOf(key);
  }

  holdsKey(key: string): boolean {
    return this.byKey(key) !== undefined;
  }

  /** Another replica took the session stored under `key`: the copy here is dropped. */
  movedKey(key: string): void {
    const session = this.byKey(key);
    if (session !== undefined) this.parts.moved(session);
  }

  /** A session ended at another replica: the copy here stops (its streams get the lost signal there). */
  endedElsewhere(key: string): void {
    const session = this.byKey(key);
    if (session === undefined) return;
    session.stop("lost");
    this.parts.forgetLocal(session);
    this.shared?.forget(session);
  }

  /** Takes over the session a cookie names from the shared store (attached only). */
  take(id: string, how: { readonly lazy: boolean }): Promise<Resolved<Model>> {
    return this.takeovers.take(id, how);
  }

  /** Settles when every takeover already on its way has finished. */
  takeoversSettled(): Promise<unknown> {
    return this.takeovers.settled();
  }

  private *heldKeys(): Iterable<[string, number]> {
    for (const session of this.parts.sessions()) {
      const hold = this.shared?.holdOf(session);
      if (hold !== undefined) yield [hold.key, hold.since];
    }
  }
}
