/**
 * The sessions of one live app in this process, and their ids (docs/protocol.md#session-rotation
 * states, docs/protocol.md#errors-and-statuses).
 *
 * A session has a secret id (its cookie) and a public handle (the advisory `sessionId` of event
 * bodies, safe to show to page scripts). Rotation moves both to fresh values; the old secret id
 * answers "rotating" for 60 s and "lost" after. Only the tab whose event caused the rotation gets
 * the one-time rotation ticket that exchanges the old cookie for the new one (see ROTATE_PATH).
 * A sweeper ends idle sessions and frees the rendered tree of quiet ones.
 *
 * The parts: the rotated-away ids and their tickets are src/live/server/registry/rotation-table.ts,
 * where sessions are kept beyond this table (in this process, or shared between replicas: chosen
 * once, when the app is built) src/live/server/registry/session-keeping.ts, what a lookup answers
 * src/live/server/registry/lookup.ts, the caps on sessions src/live/server/registry/bounds.ts and
 * the kept trees' byte budget src/live/server/registry/tree-budget.ts; this module holds the table
 * of sessions and their lifecycle, the same whichever keeping it has.
 */
import { log } from "../../../log.ts";
import { repeatUnref } from "../../../runtime/timers.ts";
import { DEFAULT_SESSION_BOUNDS, SessionBounds, type SessionCounts } from "./bounds.ts";
import type { Dispatch } from "../session/commands.ts";
import type { Frame } from "../streams/sse-wire.ts";
import type { LiveSession, SessionHost } from "../session/session.ts";
import type { SessionState } from "../session/state.ts";
import { type Rotation, RotationTable } from "./rotation-table.ts";
import { LOST, type Resolved, ROTATING } from "./lookup.ts";
import { type KeepingHost, LocalKeeping, type RotatedFrom, type SessionKeeping, type TakeHow } from "./session-keeping.ts";
import { TreeBudget } from "./tree-budget.ts";
import { encodeBytes } from "../../../runtime/base64url.ts";
import type { RegistryOptions } from "./registry-options.ts";
import type { RenderProbe } from "../../probe.ts";

export type { Resolved, Rotation };
export type { RegistryOptions };

/** How a lookup takes over a session another replica holds: claimed now, or by the event's save. */
const EAGER = { lazy: false } as const;
const LAZY = { lazy: true } as const;

export class SessionRegistry<Model> implements SessionHost<Model> {
  private readonly sessions = new Map<string, LiveSession<Model>>();
  /**
   * Each session's public handle. Weak, and kept when a copy moves away: a reply that copy still
   * gives (docs/deployment.md#late-notices) names the session by it, which the new owner read from
   * the store unchanged.
   */
  private readonly handles = new WeakMap<LiveSession<Model>, string>();
  /** The ids sessions rotated away from, and the tickets waiting for their replies. */
  private readonly rotations: RotationTable<Model>;
  /**
   * Sessions holding a rendered tree, least recently used first, within a byte budget
   * (src/live/server/registry/tree-budget.ts).
   *
   * The tree is a cache of view(model): a session without one re-renders it from the model, as
   * after an idle drop, which makes its next event cost a render of the whole page (several times
   * an event with a kept tree, docs/deployment.md#memory). A kept tree outlives many
   * other sessions' events, but the diff leaves most of it the objects of earlier renders
   * (src/live/diff/diff.ts), so it costs the collector little; what it costs is memory, in proportion
   * to its page, which the budget bounds in bytes (bench/table.bench.ts measures the heap a kept
   * tree costs). A quiet session drops its tree at the sweep, unless it has an open stream, whose
   * background frames are diffed against it.
   */
  private readonly treeHolders: TreeBudget<LiveSession<Model>>;
  private stopSweeper: (() => void) | undefined;
  private readonly bounds: SessionBounds<LiveSession<Model>>;
  /** Set by drain: no new session, and no takeover, on this replica. */
  draining = false;
  /** Where sessions are kept beyond this table (src/live/server/registry/session-keeping.ts). */
  private keeping: SessionKeeping<Model>;

  /** The test hook its sessions' renders count into, if any (src/live/probe.ts). */
  get renderProbe(): RenderProbe | undefined {
    return this.options.renderProbe;
  }

  constructor(private readonly options: RegistryOptions<Model>) {
    this.rotations = new RotationTable<Model>(options.now);
    this.treeHolders = new TreeBudget(options.maxTreeBytes);
    this.bounds = new SessionBounds(options.bounds ?? DEFAULT_SESSION_BOUNDS, (session) => this.discard(session));
    this.keeping = new LocalKeeping(options.store, options.now);
    this.keeping.attach(this.host());
  }

  /** Keeps the sessions in `keeping` from now on: called once, as the app is built, before any session exists. */
  keepIn(keeping: SessionKeeping<Model>): void {
    this.keeping = keeping;
    keeping.attach(this.host());
  }

  /** What the keeping may ask of this table. */
  private host(): KeepingHost<Model> {
    return {
      sessions: () => this.sessions.values(),
      draining: () => this.draining,
      adopt: (id, session, handle, rotatedFrom) => this.adopt(id, session, handle, rotatedFrom),
      moved: (session) => this.moved(session),
      forgetLocal: (session) => this.forgetLocal(session),
      end: (session) => this.end(session),
    };
  }

  /** What the keeping shares with other replicas, if anything (for tests to look into). */
  get shared(): unknown {
    return this.keeping.shared;
  }

  /** The users of the streams open here for sessions held elsewhere. */
  streamedUsers(): Iterable<string> {
    return this.keeping.streamedUsers();
  }

  /** The streams open here for sessions of `user` held elsewhere. */
  streamsOf(user: string): ReturnType<SessionKeeping<Model>["streamsOf"]> {
    return this.keeping.streamsOf(user);
  }

  /**
   * Makes room for a new session, ending the oldest never-connected ones as the bounds require;
   * false when every session is connected and the cap is reached.
   */
  makeRoom(): boolean {
    return this.bounds.makeRoom(() => this.sessions.size);
  }

  /** Whether this replica holds the session with this id now. */
  holds(id: string): boolean {
    const session = this.sessions.get(id);
    return session !== undefined && session.isLive;
  }

  /**
   * Saves a session's state now (a page load's), after any store write it waits for (a create or a
   * move, whose failure fails this too); with one process, nothing to do. Rejects when the store
   * fails. A save refused because the session moved is left to the next request.
   */
  async saveNow(session: LiveSession<Model>): Promise<void> {
    if (!(await this.keeping.saveNow(session, this.handleOf(session)))) this.moved(session);
  }

  add(session: LiveSession<Model>): void {
    this.sessions.set(session.id, session);
    const handle = randomToken().slice(0, 22);
    this.handles.set(session, handle);
    this.bounds.added(session);
    this.keeping.created(session, handle);
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

  /** The store writes a reply about this session must wait for, if any. */
  settled(session: LiveSession<Model>): Promise<void> | undefined {
    return this.keeping.settled(session);
  }

  /** The public handle a page script may see and post back as `sessionId`. */
  handleOf(session: LiveSession<Model>): string {
    return this.handles.get(session) ?? "";
  }

  /**
   * With a shared store: drops the copy of the session `id` names held here when another replica
   * has taken it on since (a takeover whose notice is not heard yet), so that a render or a new
   * stream gets the session's current state, not this copy's (docs/deployment.md#late-notices).
   * Rejects when the store fails.
   */
  async confirmHeld(id: string | undefined): Promise<void> {
    const session = id === undefined ? undefined : this.sessions.get(id);
    if (session === undefined || !session.isLive) return;
    const current = this.keeping.isCurrent(session);
    if (current === true) return;
    if (!(await current) && session.isLive) this.moved(session);
  }

  /**
   * The session a cookie names. With a shared store, one this replica does not hold is taken
   * over from its saved state (then the answer is a promise); with none, the answer is at hand.
   */
  resolve(id: string | undefined): Resolved<Model> | Promise<Resolved<Model>> {
    return this.lookUp(id, EAGER);
  }

  /**
   * `resolve` for an event: a session held by another replica is only read, and claimed by the
   * save of the event's change (one write per move).
   */
  resolveForEvent(id: string | undefined): Resolved<Model> | Promise<Resolved<Model>> {
    return this.lookUp(id, LAZY);
  }

  private lookUp(id: string | undefined, how: TakeHow): Resolved<Model> | Promise<Resolved<Model>> {
    if (id === undefined) return LOST;
    const session = this.sessions.get(id);
    if (session !== undefined && session.isLive) return { kind: "live", session };
    if (this.rotations.rotating(id) !== undefined) return ROTATING;
    return this.keeping.takeOver(id, how);
  }

  /** Holds a session taken over from where it was kept (another replica's) from now on. */
  private adopt(id: string, session: LiveSession<Model>, handle: string, rotatedFrom: readonly RotatedFrom[]): void {
    this.sessions.set(id, session);
    this.handles.set(session, handle);
    // Its rotated-away ids keep their grace period here: a tab with the old token or handle is told the new ones.
    this.rotations.adopt(session, rotatedFrom);
    // A session taken over is one a client is using: never a pending one to evict for room.
    this.bounds.added(session);
    this.bounds.connected(session);
    session.start(undefined);
    this.stopSweeper ??= repeatUnref(() => this.sweep(), this.options.sweepEveryMs);
  }

  durable(session: LiveSession<Model>, state: SessionState<Model>, frame: Frame | undefined): true | Promise<boolean> {
    return this.keeping.durable(session, this.handleOf(session), state, frame);
  }

  /** The session now runs at another replica: this copy stops; its streams keep listening here. */
  moved(session: LiveSession<Model>): void {
    session.stop("moved", { keepStreams: true });
    this.forgetLocal(session);
    this.keeping.forget(session);
  }

  /** A task completed for a session that moved: its message goes to the session wherever it is now. */
  redeliver(session: LiveSession<Model>, dispatch: Dispatch): void {
    void (async () => {
      const resolved = await this.resolve(session.id);
      if (resolved.kind === "live") await resolved.session.background(dispatch);
    })().catch((error: unknown) => log.error(`live.task result not delivered: ${error instanceof Error ? error.message : String(error)}`));
  }

  private forgetLocal(session: LiveSession<Model>): void {
    this.treeHolders.forget(session);
    this.bounds.removed(session);
    if (this.sessions.get(session.id) === session) this.sessions.delete(session.id);
  }

  /** Whether `handle` is one this session rotated away from within the grace period (the body named its old id). */
  rotatedHandle(session: LiveSession<Model>, handle: string): boolean {
    return this.rotations.rotatedHandle(session, handle);
  }

  /** The ids this session rotated away from that still answer "rotating" (their grace period). */
  rotatedIds(session: LiveSession<Model>): IterableIterator<string> {
    return this.rotations.rotatedIds(session);
  }

  /**
   * Exchanges a rotated-away id for the current session, for the holder of the ticket only; also
   * for a rotation made elsewhere, when the keeping knows of one (the session is then taken over here).
   */
  exchange(
    oldId: string | undefined,
    ticket: string | undefined,
  ): LiveSession<Model> | undefined | Promise<LiveSession<Model> | undefined> {
    const here = this.rotations.exchange(oldId, ticket);
    if (here !== undefined || oldId === undefined || ticket === undefined || ticket === "") return here;
    return this.keeping.exchange(oldId, ticket)?.then(async (to) => {
      if (to === undefined) return undefined;
      const resolved = await this.resolve(to);
      return resolved.kind === "live" ? resolved.session : undefined;
    });
  }

  rotate(session: LiveSession<Model>): void {
    if (!session.isLive || this.sessions.get(session.id) !== session) return;
    const from = session.id;
    const fromHandle = this.handleOf(session);
    const rotation: Rotation<Model> = { from, fromHandle, to: session, at: this.options.now(), ticket: randomToken() };
    this.sessions.delete(from);
    session.id = randomToken();
    this.sessions.set(session.id, session);
    this.handles.set(session, randomToken().slice(0, 22));
    this.rotations.add(rotation);
    this.keeping.rotated(session, this.handleOf(session), { from, fromHandle, ticket: rotation.ticket! });
  }

  usedTree(session: LiveSession<Model>): void {
    for (const oldest of this.treeHolders.use(session, session.treeBytes)) oldest.releaseTree();
  }

  /**
   * The estimated bytes of the trees kept now, and how many sessions keep one: what to watch when
   * sizing `maxTreeBytes` (docs/deployment.md#memory).
   */
  get keptTrees(): { readonly bytes: number; readonly sessions: number } {
    return { bytes: this.treeHolders.usedBytes, sessions: this.treeHolders.size };
  }

  persist(session: LiveSession<Model>): void {
    this.keeping.persist(session);
  }

  bind(session: LiveSession<Model>, userId: string): void {
    if (this.options.onBind) this.options.onBind(session, userId);
    else session.bindUser(userId, session.boundAt);
  }

  /** Ends a session: effects stop, the snapshot and the id die, rotated-away ids die with it. */
  end(session: LiveSession<Model>): void {
    this.drop(session);
    this.keeping.ended(session);
  }

  /**
   * Ends a session that never connected, to respect the bounds: its snapshot is deleted rather
   * than its id put on the store's dead list, which a flood would otherwise grow by an id per
   * request. Such a session never ran an event, so no later save can bring it back.
   */
  private discard(session: LiveSession<Model>): void {
    this.drop(session);
    this.keeping.discarded(session);
  }

  private drop(session: LiveSession<Model>): void {
    session.stop("lost");
    this.forgetLocal(session);
    this.rotations.forget(session);
  }

  /**
   * Drain (docs/deployment.md#several-replicas): no new sessions; each held session finishes
   * what it is doing, is saved (it already is: every change is saved before it is sent), gives
   * up its lease and closes its streams plainly, so its clients reconnect to another replica.
   */
  async drain(): Promise<void> {
    this.draining = true;
    // Takeovers already on their way finish first (and hand their session back, see takeOver).
    await this.keeping.takeoversSettled();
    const held = [...this.sessions.values()];
    await Promise.all(
      held.map(async (session) => {
        await session.mutex.run(() => undefined);
        session.stop("moved");
        this.forgetLocal(session);
        await this.keeping.release(session).catch((error: unknown) =>
          log.error(`live.drain release failed: ${error instanceof Error ? error.message : String(error)}`)
        );
      }),
    );
    this.stopSweeper?.();
    this.stopSweeper = undefined;
    await this.keeping.stop();
  }

  /** What a drain still waits for, in words, for the drain's log (docs/deployment.md#draining). */
  waitingFor(): string[] {
    const waiting: string[] = [];
    if (this.sessions.size > 0) waiting.push(`${this.sessions.size} live session(s) to finish what they do and be handed back`);
    let streams = 0;
    for (const session of this.sessions.values()) streams += session.streamCount;
    if (streams > 0) waiting.push(`${streams} stream(s) of those sessions to close`);
    return waiting;
  }

  /** The rotation a request's processing caused, once (the reply hands its ticket to that tab). */
  takeRotation(session: LiveSession<Model>): Rotation<Model> | undefined {
    return this.rotations.take(session);
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
        this.end(session);
      } else if (idle >= this.options.treeIdleMs && session.hasTree && session.streamCount === 0) {
        session.releaseTree();
        // Nor does it keep frames for a stream that reconnects later: that stream resyncs.
        session.frames.forgetRecent();
        session.forgetRenames();
        this.treeHolders.forget(session);
      }
    }
    this.rotations.sweep(now);
  }

  /** Stops every session held here and the sweeper: ended in one process, left to the others when shared. */
  close(): void {
    this.keeping.close();
    this.stopSweeper?.();
    this.stopSweeper = undefined;
  }
}

/** Unguessable tokens for session ids, CSRF tokens and rotation tickets: 32 random bytes, base64url. */
export function randomToken(): string {
  return encodeBytes(crypto.getRandomValues(new Uint8Array(32)));
}
