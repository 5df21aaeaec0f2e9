/**
 * The sessions of one live app in this process, and their ids (live-input-authority.md §Session id
 * states, §Errors).
 *
 * A session has a secret id (its cookie) and a public handle (the advisory `sessionId` of event
 * bodies, safe to show to page scripts). Rotation moves both to fresh values; the old secret id
 * answers "rotating" for 60 s and "lost" after. Only the tab whose event caused the rotation gets
 * the one-time rotation ticket that exchanges the old cookie for the new one (see ROTATE_PATH).
 * A sweeper ends idle sessions and frees the rendered tree of quiet ones.
 */
import { log } from "../../log.ts";
import { repeatUnref } from "../../runtime/timers.ts";
import { constantTimeEqual } from "../../auth/constant-time.ts";
import { randomToken } from "./random.ts";
import { DEFAULT_SESSION_BOUNDS, SessionBounds, type SessionBoundsOptions, type SessionCounts } from "./session-bounds.ts";
import type { LiveSession, SessionHost } from "./session.ts";
import { snapshotOf } from "./session-state.ts";
import type { SessionStore } from "./store.ts";
import { TreeBudget } from "./tree-budget.ts";
import { ROTATION_GRACE_MS } from "../../protocol/mod.ts";

export type Rotation = {
  readonly from: string;
  readonly fromHandle: string;
  readonly to: LiveSession<unknown>;
  readonly at: number;
  readonly ticket: string;
};

export type Resolved<Model> =
  | { readonly kind: "live"; readonly session: LiveSession<Model> }
  | { readonly kind: "rotating"; readonly rotation: Rotation }
  | { readonly kind: "lost" };

export type RegistryOptions = {
  readonly store: SessionStore;
  readonly now: () => number;
  /** A session with no interaction for this long ends. */
  readonly idleTimeoutMs: number;
  /** A session with no interaction for this long drops its rendered tree (re-rendered on demand). */
  readonly treeIdleMs: number;
  readonly sweepEveryMs: number;
  /** How many bytes of rendered trees sessions keep between events (the most recently used ones; src/live/server/tree-budget.ts). */
  readonly maxTreeBytes: number;
  /** How many sessions, and for how long sessions that never connect, are kept (src/live/server/session-bounds.ts). */
  readonly bounds?: SessionBoundsOptions;
  /** Called when a user is bound (issue: live sessions meet auth); default: record it. */
  readonly onBind?: (session: LiveSession<unknown>, userId: string) => void;
};

export class SessionRegistry<Model> implements SessionHost {
  private readonly sessions = new Map<string, LiveSession<Model>>();
  private readonly handles = new Map<LiveSession<Model>, string>();
  private readonly rotations = new Map<string, Rotation>();
  /** Rotations made while processing a request, picked up by that request's reply. */
  private readonly pendingTickets = new Map<LiveSession<unknown>, Rotation>();
  /**
   * Sessions holding a rendered tree, least recently used first, within a byte budget
   * (src/live/server/tree-budget.ts).
   *
   * The tree is a cache of view(model): a session without one re-renders it from the model, as
   * after an idle drop, which about doubles its next event's cost. A kept tree outlives many
   * other sessions' events, but the diff leaves most of it the objects of earlier renders
   * (src/live/diff.ts), so it costs the collector little; what it costs is memory, in proportion
   * to its page, which the budget bounds in bytes (bench/table.bench.ts measures the heap a kept
   * tree costs). A quiet session drops its tree at the sweep, unless it has an open stream, whose
   * background frames are diffed against it.
   */
  private readonly treeHolders: TreeBudget<LiveSession<Model>>;
  private stopSweeper: (() => void) | undefined;
  private readonly bounds: SessionBounds<LiveSession<Model>>;

  constructor(private readonly options: RegistryOptions) {
    this.treeHolders = new TreeBudget(options.maxTreeBytes);
    this.bounds = new SessionBounds(options.bounds ?? DEFAULT_SESSION_BOUNDS, (session) => this.discard(session as LiveSession<unknown>));
  }

  /**
   * Makes room for a new session, ending the oldest never-connected ones as the bounds require;
   * false when every session is connected and the cap is reached.
   */
  makeRoom(): boolean {
    return this.bounds.makeRoom(() => this.sessions.size);
  }

  add(session: LiveSession<Model>): void {
    this.sessions.set(session.id, session);
    this.handles.set(session, randomToken().slice(0, 22));
    this.bounds.added(session);
    this.persist(session as LiveSession<unknown>);
    this.stopSweeper ??= repeatUnref(() => this.sweep(), Math.min(this.options.sweepEveryMs, this.bounds.sweepEveryMs));
  }

  /** The session sent an event or opened a stream: no longer pending, never evicted to make room. */
  connected(session: LiveSession<Model>): void {
    this.bounds.connected(session);
  }

  /** Live, pending, evicted and expired session counts, for monitoring. */
  counts(): SessionCounts {
    return this.bounds.counts(this.sessions.size);
  }

  /** The public handle a page script may see and post back as `sessionId`. */
  handleOf(session: LiveSession<Model>): string {
    return this.handles.get(session) ?? "";
  }

  resolve(id: string | undefined): Resolved<Model> {
    if (id === undefined) return { kind: "lost" };
    const session = this.sessions.get(id);
    if (session !== undefined && !session.ended) return { kind: "live", session };
    const rotation = this.rotations.get(id);
    if (rotation !== undefined && !rotation.to.ended && this.options.now() - rotation.at < ROTATION_GRACE_MS) {
      return { kind: "rotating", rotation };
    }
    return { kind: "lost" };
  }

  /** Whether `handle` is one this session rotated away from within the grace period (the body named its old id). */
  rotatedHandle(session: LiveSession<Model>, handle: string): boolean {
    const now = this.options.now();
    for (const rotation of this.rotations.values()) {
      if (rotation.to === session && rotation.fromHandle === handle && now - rotation.at < ROTATION_GRACE_MS) return true;
    }
    return false;
  }

  /** The ids this session rotated away from that still answer "rotating" (their grace period). */
  *rotatedIds(session: LiveSession<Model>): IterableIterator<string> {
    const now = this.options.now();
    for (const [from, rotation] of this.rotations) {
      if (rotation.to === session && now - rotation.at < ROTATION_GRACE_MS) yield from;
    }
  }

  /** Exchanges a rotated-away id for the current session, for the holder of the ticket only. */
  exchange(oldId: string | undefined, ticket: string | undefined): LiveSession<Model> | undefined {
    if (oldId === undefined || ticket === undefined) return undefined;
    const resolved = this.resolve(oldId);
    if (resolved.kind !== "rotating" || !constantTimeEqual(resolved.rotation.ticket, ticket)) return undefined;
    return resolved.rotation.to as LiveSession<Model>;
  }

  rotate(session: LiveSession<unknown>): void {
    const live = session as LiveSession<Model>;
    if (live.ended || this.sessions.get(live.id) !== live) return;
    const from = live.id;
    const fromHandle = this.handleOf(live);
    const rotation: Rotation = { from, fromHandle, to: session, at: this.options.now(), ticket: randomToken() };
    this.sessions.delete(from);
    live.id = randomToken();
    this.sessions.set(live.id, live);
    this.handles.set(live, randomToken().slice(0, 22));
    this.rotations.set(from, rotation);
    this.pendingTickets.set(session, rotation);
    void this.options.store.kill(from);
  }

  usedTree(session: LiveSession<unknown>): void {
    const live = session as LiveSession<Model>;
    for (const oldest of this.treeHolders.use(live, live.treeBytes)) oldest.releaseTree();
  }

  /** The estimated bytes of the trees kept now, and how many sessions keep one (for tests and benchmarks). */
  get keptTrees(): { readonly bytes: number; readonly sessions: number } {
    return { bytes: this.treeHolders.usedBytes, sessions: this.treeHolders.size };
  }

  persist(session: LiveSession<unknown>): void {
    if (session.ended) return;
    this.options.store.save(snapshotOf(session.id, session.state, this.options.now())).catch((error: unknown) => log.error(`live.store save failed: ${error instanceof Error ? error.message : String(error)}`));
  }

  bind(session: LiveSession<unknown>, userId: string): void {
    if (this.options.onBind) this.options.onBind(session, userId);
    else session.bindUser(userId, session.boundAt);
  }

  /** Ends a session: effects stop, the snapshot and the id die, rotated-away ids die with it. */
  end(session: LiveSession<unknown>): void {
    this.drop(session);
    void this.options.store.kill(session.id);
  }

  /**
   * Ends a session that never connected, to respect the bounds: its snapshot is deleted rather
   * than its id put on the store's dead list, which a flood would otherwise grow by an id per
   * request. Such a session never ran an event, so no later save can bring it back.
   */
  private discard(session: LiveSession<unknown>): void {
    this.drop(session);
    void this.options.store.delete(session.id);
  }

  private drop(session: LiveSession<unknown>): void {
    const live = session as LiveSession<Model>;
    live.stop();
    this.treeHolders.forget(live);
    this.bounds.removed(live);
    if (this.sessions.get(live.id) === live) this.sessions.delete(live.id);
    this.handles.delete(live);
    for (const [from, rotation] of this.rotations) if (rotation.to === session) this.rotations.delete(from);
  }

  /** The rotation a request's processing caused, once (the reply hands its ticket to that tab). */
  takeRotation(session: LiveSession<Model>): Rotation | undefined {
    const rotation = this.pendingTickets.get(session as LiveSession<unknown>);
    this.pendingTickets.delete(session as LiveSession<unknown>);
    return rotation;
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Every live session (for tests and benchmarks). */
  all(): IterableIterator<LiveSession<Model>> {
    return this.sessions.values();
  }

  sweep(): void {
    const now = this.options.now();
    this.bounds.sweep(now);
    for (const session of [...this.sessions.values()]) {
      const idle = now - session.lastActive;
      if (idle >= this.options.idleTimeoutMs) {
        log.info(`live.session expired after ${Math.round(idle / 1000)} s idle`);
        this.end(session as LiveSession<unknown>);
      } else if (idle >= this.options.treeIdleMs && session.hasTree && session.streams.size === 0) {
        session.releaseTree();
        // Nor does it keep frames for a stream that reconnects later: that stream resyncs.
        session.frames.forgetRecent();
        session.forgetRenames();
        this.treeHolders.forget(session);
      }
    }
    for (const [from, rotation] of this.rotations) {
      if (now - rotation.at >= ROTATION_GRACE_MS) this.rotations.delete(from);
    }
  }

  /** Ends every session and stops the sweeper. */
  close(): void {
    for (const session of [...this.sessions.values()]) this.end(session as LiveSession<unknown>);
    this.stopSweeper?.();
    this.stopSweeper = undefined;
  }
}
