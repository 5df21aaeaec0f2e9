/**
 * A live app's sessions when several replicas share them (docs/deployment.md#several-replicas):
 * what this replica holds of the shared store, and what it hears on the bus.
 *
 * Takeover, not forwarding: a replica asked about a session it does not hold loads the last saved
 * state and takes the session over (the epoch moves on), whoever held it; the old holder hears
 * "taken" on the bus and drops its copy, and a save it still attempts is fenced off. Every change
 * is saved before its frame goes out (`save`), so the state a replica takes over is the one the
 * client saw last, and the seqs it stamps are above every seq the client has.
 *
 * Streams stay where they connected: a replica that holds a stream of a session owned elsewhere
 * gets that session's frames over the bus (each save publishes its frame in the same statement).
 */
import { log } from "../../../log.ts";
import { randomId } from "../../../db/random-id.ts";
import { repeatUnref } from "../../../runtime/timers.ts";
import type { BusMessage, LiveBus } from "../../store/bus.ts";
import { encodeMessage } from "../../store/bus.ts";
import type { ModelCodec } from "../../store/codec.ts";
import type { Sealer } from "../../store/seal.ts";
import { sessionKey } from "../../store/session-key.ts";
import { type Claim, LEASE_MS, type LiveStore, type Ownership, type StoredRotation, type StoredSession } from "../../store/store.ts";
import { constantTimeEqual } from "../../../auth/constant-time.ts";
import { ROTATION_GRACE_MS } from "../../../protocol/mod.ts";
import type { Frame } from "../streams/sse-wire.ts";
import type { LiveSession } from "../session/session.ts";
import type { SessionFrames } from "../streams/session-frames.ts";
import { SessionWrites } from "./store-writes.ts";
import { type Hold, SessionHolds } from "./session-holds.ts";
import { StreamsHere } from "./local-streams.ts";
import type { SessionState } from "../session/state.ts";
import type { RotationRecord } from "../registry/session-keeping.ts";
import { VersionedMap } from "../session/versioned-map.ts";

/** How long a takeover waits for the frames its streams here have still to hear (a bus that does not hear is not waited for longer). */
const HEARD_UP_TO_MS = 1_000;

/** A session taken over: its state as stored, and the streams already open for it here. */
export type Loaded<Model> = {
  readonly key: string;
  readonly epoch: number;
  readonly handle: string;
  readonly state: SessionState<Model>;
  readonly frames: SessionFrames;
  /** The ids it rotated away from that are still in their grace period (docs/protocol.md#session-rotation). */
  readonly rotatedFrom: readonly { readonly id: string; readonly handle: string; readonly remainingMs: number }[];
  /** Set when the session was only loaded: its next save claims it from its owner. */
  readonly claim: Claim | undefined;
};

/** What a replica's sessions are stored with: the app's name in the store, its model's codec, its clock and the sealer of rotated ids. */
export type SharedParts<Model> = {
  readonly app: string;
  readonly codec: ModelCodec<Model>;
  readonly now: () => number;
  readonly sealer: Sealer;
};

/** One save of a session: the handle and state it stores, and the frame it publishes (none for a save alone). */
export type SessionSave<Model> = {
  readonly handle: string;
  readonly state: SessionState<Model>;
  readonly frame: Frame | undefined;
};

/** What the registry does when the bus or a lease renewal says a local copy is no longer ours. */
export type SharedEvents = {
  /** Another replica took the session over: drop the local copy, keep its streams listening. */
  readonly moved: (key: string) => void;
  /** The session ended elsewhere (endSession, eviction): the local copy ends, streams get the lost signal. */
  readonly ended: (key: string) => void;
  /**
   * The bus listens again after its connection dropped, and the store said which sessions moved or
   * ended meanwhile: what remains is to re-check the users of the sessions and streams held here
   * against the revocation gate (an access notice may have been missed).
   */
  readonly resumed: () => void;
};

export class SharedSessions<Model> {
  /** This replica, as the store's owner column and the bus's `from` name it. */
  readonly owner: string = randomId();
  /** The sessions held here, by session and by key (what the bus and lease renewal name). */
  private readonly holds = new SessionHolds<LiveSession<Model>>();
  /** Streams open on this replica, by session key, whether the session is held here or not. */
  /** Each session's store writes, in order (a create, a move, a kill before its next save). */
  private readonly writes = new SessionWrites<LiveSession<Model>>();
  private stopRenewal: (() => void) | undefined;
  private unsubscribe: (() => void) | undefined;
  private bus: LiveBus | undefined;
  /** Settles once the bus listens (or failed to); takeovers and creates wait for it. */
  ready: Promise<void> = Promise.resolve();

  private readonly app: string;
  private readonly codec: ModelCodec<Model>;
  private readonly now: () => number;
  /** Seals the ids a rotation stores (src/live/store/seal.ts). */
  private readonly sealer: Sealer;

  constructor(readonly store: LiveStore, parts: SharedParts<Model>) {
    ({ app: this.app, codec: this.codec, now: this.now, sealer: this.sealer } = parts);
  }

  /** Listens on the bus and starts renewing leases. */
  start(bus: LiveBus, events: SharedEvents): void {
    this.bus = bus;
    const unsubscribe = bus.subscribe((message) => this.hear(message, events));
    const stopResume = bus.onResume(() => void this.catchUp(events));
    this.unsubscribe = () => {
      unsubscribe();
      stopResume();
    };
    this.stopRenewal = repeatUnref(() => void this.renew(events), Math.floor(LEASE_MS / 3));
  }

  sessionOf(key: string): LiveSession<Model> | undefined {
    return this.holds.sessionOf(key);
  }

  keyOf(session: LiveSession<Model>): string | undefined {
    return this.holds.get(session)?.key;
  }

  /** The streams connected to this replica, of sessions held here and of sessions owned elsewhere. */
  readonly streams: StreamsHere = new StreamsHere();

  /** Records a new session, owned here at epoch 1; its first save waits for this. */
  create(session: LiveSession<Model>, handle: string): Promise<void> {
    return this.writes.then(session, async () => {
      await this.ready;
      const key = await sessionKey(session.id);
      this.holds.set(session, { key, epoch: 1, since: this.now() });
      this.streams.held(key, session.frames);
      await this.store.create(this.stored(key, handle, session.state), this.owner);
    });
  }

  /**
   * Takes the session with this id over, from its saved state; undefined when unknown or dead.
   * `lazy` (an event's takeover): the session is only read, and the save of the event's change
   * claims it, fenced on the epoch read, so a move costs a read and the save the event makes anyway.
   */
  async take(id: string, { lazy }: { readonly lazy: boolean }): Promise<Loaded<Model> | undefined> {
    await this.ready;
    const key = await sessionKey(id);
    const taken = lazy ? await this.store.load(key) : await this.store.take(key, this.owner);
    if (taken === undefined) return undefined;
    const claim = "owner" in taken
      ? (taken.owner === this.owner ? undefined : { previousOwner: taken.owner, version: taken.version })
      : undefined;
    const stored = taken.session;
    const state: SessionState<Model> = {
      model: this.codec.decode(stored.model),
      outSeq: stored.outSeq,
      inputSeqs: VersionedMap.of(stored.inputSeqs),
      pageSeqs: new Map(stored.pageSeqs),
      user: stored.user,
      boundAt: stored.boundAt,
    };
    const rotatedFrom = [];
    for (const rotation of taken.rotatedFrom) {
      const from = await this.sealer.unseal(rotation.fromSealed);
      if (from !== undefined) rotatedFrom.push({ id: from, handle: rotation.fromHandle, remainingMs: rotation.remainingMs });
    }
    // Streams here that listened to the previous owner get every frame it saved before the state
    // read above, before this replica's own frames follow it (docs/deployment.md#late-notices).
    if (this.streams.listening(key)) await this.bus?.heardUpTo(HEARD_UP_TO_MS);
    const frames = this.streams.framesFor(key);
    this.streams.held(key, frames);
    return { key, epoch: taken.epoch, handle: stored.handle, state, frames, rotatedFrom, claim };
  }

  /** Marks a session built from `take` as held here (with `claim`, once its next save claims it). */
  hold(session: LiveSession<Model>, key: string, epoch: number, claim?: Claim): void {
    this.holds.set(session, claim === undefined ? { key, epoch, since: this.now() } : { key, epoch, since: this.now(), claim });
  }

  /**
   * Saves a change before its frame goes out, fenced on this replica's epoch; the frame is
   * published in the same statement for streams held by other replicas. False: the session moved.
   */
  async save(
    session: LiveSession<Model>,
    { handle, state, frame }: SessionSave<Model>,
    /** `strict`: rejects when the write it waits for (a create, a move) failed, rather than saving over a missing row. */
    { strict }: { readonly strict: boolean } = { strict: false },
  ): Promise<boolean> {
    await this.writes.before(session, { strict });
    const hold = this.holds.get(session);
    if (hold === undefined) return false;
    const claim = hold.claim;
    // The epoch the row has once this save commits (a claim moves it on by one), so that a replica
    // hearing the notice late can tell it says nothing newer than the state it read.
    const epoch = claim === undefined ? hold.epoch : hold.epoch + 1;
    const notice = frame === undefined
      ? undefined
      : encodeMessage({ t: "frame", app: this.app, key: hold.key, from: this.owner, frame, epoch });
    const saved = await this.store.save(this.stored(hold.key, handle, state), this.owner, hold.epoch, notice, claim);
    if (saved && claim !== undefined && this.holds.get(session) === hold) {
      // Claimed: ours from now on, one epoch on (src/live/store/store.ts).
      hold.epoch += 1;
      hold.claim = undefined;
    }
    return saved;
  }

  /**
   * The session's id rotated: it moves to the new id's key (the old key dies), in the background of
   * its next save; the rotation is stored with it, so any replica honours its grace period.
   */
  move(session: LiveSession<Model>, handle: string, rotation: RotationRecord): Promise<void> {
    const to = session.id;
    return this.writes.move(session, async () => {
      const hold = this.holds.get(session);
      if (hold === undefined) return;
      const key = await sessionKey(to);
      const stored: StoredRotation = {
        fromHandle: rotation.fromHandle,
        fromSealed: await this.sealer.seal(rotation.from),
        toSealed: await this.sealer.seal(to),
        ticketHash: await sessionKey(rotation.ticket),
        graceMs: ROTATION_GRACE_MS,
      };
      await this.store.move(hold.key, this.stored(key, handle, session.state), this.owner, stored);
      this.streams.rekeyed(hold.key, key, session.frames);
      this.holds.set(session, { key, epoch: 1, since: this.now() });
    });
  }

  /** Ends a session in the store: its key dies, and every replica hears that it ended. */
  kill(session: LiveSession<Model>): Promise<void> {
    return this.writes.then(session, async () => {
      const hold = this.holds.get(session);
      if (hold === undefined) return;
      this.holds.drop(session);
      this.streams.forget(hold.key);
      await this.store.kill(hold.key, encodeMessage({ t: "ended", app: this.app, key: hold.key, from: this.owner }));
    });
  }

  /**
   * Whether the copy here is still the session's latest state, as the store says: false when
   * another replica took the session on or saved a newer state since this replica read or claimed
   * it (its notice not heard yet). Called under the session's lock, so that no save of this
   * replica is on its way (docs/deployment.md#late-notices).
   */
  async isCurrent(session: LiveSession<Model>): Promise<boolean> {
    const hold = this.holds.get(session);
    if (hold === undefined) return true;
    const found = await this.store.ownership(hold.key);
    // Gone from the store: the end's notice, or the next request, says so.
    if (found === undefined) return true;
    return found.epoch <= hold.epoch && found.outSeq <= session.outSeq;
  }

  /** Gives up the lease (drain): the next replica to need the session takes it at once. */
  async release(session: LiveSession<Model>): Promise<void> {
    await this.writes.done(session);
    const hold = this.holds.get(session);
    if (hold === undefined) return;
    this.holds.drop(session);
    await this.store.release(hold.key, this.owner, hold.epoch);
  }

  /** Forgets a local copy (it moved): its streams stay, listening for frames from the new owner. */
  forget(session: LiveSession<Model>): void {
    const hold = this.holds.get(session);
    this.holds.drop(session);
    if (hold !== undefined) this.streams.letGo(hold.key, { user: session.user, boundAt: session.boundAt });
  }

  /**
   * A rotation away from `oldId` still in its grace period, stored by whichever replica made it:
   * with the right `ticket`, the id it leads to (the tab holding the ticket exchanges its cookie).
   */
  async rotation(oldId: string, ticket?: string): Promise<{ readonly to: string | undefined } | undefined> {
    const found = await this.store.rotation(await sessionKey(oldId));
    if (found === undefined) return undefined;
    if (ticket === undefined || ticket === "" || !constantTimeEqual(await sessionKey(ticket), found.ticketHash)) return { to: undefined };
    return { to: await this.sealer.unseal(found.toSealed) };
  }

  /** Who holds the session with this id (for a stream deciding whether to take it or listen). */
  async ownership(id: string): Promise<(Ownership & { key: string }) | undefined> {
    const key = await sessionKey(id);
    const found = await this.store.ownership(key, { streaming: true });
    return found && { ...found, key };
  }

  /** Ends a session known here only by its streams (evicted): they get the lost signal, the key dies. */
  async killRemote(key: string): Promise<void> {
    this.streams.ended(key);
    await this.store.kill(key, encodeMessage({ t: "ended", app: this.app, key, from: this.owner }));
  }

  async stop(): Promise<void> {
    this.stopRenewal?.();
    this.stopRenewal = undefined;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    await this.bus?.close();
  }

  private hear(message: BusMessage, events: SharedEvents): void {
    if (message.t === "access" || message.from === this.owner || !("app" in message) || message.app !== this.app) return;
    if (message.t === "frame") {
      // Only the owner's saves publish frames, so a frame of a later epoch than the copy here was
      // read or claimed at says that copy is stale: it is dropped before its streams get the frame.
      // One of that epoch or before was saved before this replica read the state (a notice heard
      // late): the copy holds it already, and dropping it would make the save this replica is
      // making look like a move (docs/deployment.md#late-notices).
      if (!this.holds.heldSince(message.key, Number(message.epoch))) events.moved(message.key);
      this.streams.send(message.key, message.frame);
    } else if (message.t === "taken" && !this.holds.heldSince(message.key, Number(message.epoch))) events.moved(message.key);
    else if (message.t === "ended") this.endedElsewhere(message.key, events);
  }

  /** A session ended at another replica: the copy here ends, and its streams here get the lost signal. */
  private endedElsewhere(key: string, events: SharedEvents): void {
    events.ended(key);
    this.streams.ended(key);
  }

  /**
   * After the bus's connection dropped and came back (docs/deployment.md#catching-up-after-a-bus-reconnect):
   * what its lost notices would have said is read from the store. A session held here that another
   * replica took is dropped (as on "taken"); one whose row is gone ended (as on "ended"), and so
   * did one streamed here whose row is gone; then the users' access is checked again (`resumed`).
   */
  private async catchUp(events: SharedEvents): Promise<void> {
    try {
      const asked = this.now();
      const held = await this.store.renew(this.owner);
      const lost = this.settledKeys(asked).filter((key) => !held.has(key));
      const remote = this.streams.remoteKeys().filter((key) => this.holds.sessionOf(key) === undefined);
      const alive = await this.store.alive([...lost, ...remote]);
      for (const key of lost) if (alive.has(key)) events.moved(key);
      for (const key of [...lost, ...remote]) if (!alive.has(key)) this.endedElsewhere(key, events);
    } catch (error) {
      log.error(`live.store catch-up after a bus reconnect failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    events.resumed();
  }

  /**
   * Keys of sessions held here since before `asked` with no store write in flight: only they can be
   * judged from a renewal that started at `asked` (a create or a move not yet committed would look
   * taken or ended).
   */
  private settledKeys(asked: number): string[] {
    const keys: string[] = [];
    for (const [key, since] of this.heldKeys()) {
      const session = this.holds.sessionOf(key);
      // A session only loaded is not ours until its save claims it: renewal says nothing about it.
      const claiming = this.holds.holdOf(key)?.claim !== undefined;
      if (since < asked && !claiming && (session === undefined || !this.writes.busy(session))) keys.push(key);
    }
    return keys;
  }

  /** Extends this replica's leases; sessions no longer among them were taken: dropped here. */
  private async renew(events: SharedEvents): Promise<void> {
    const asked = this.now();
    try {
      const held = await this.store.renew(this.owner);
      for (const key of this.settledKeys(asked)) if (!held.has(key)) events.moved(key);
    } catch (error) {
      log.error(`live.store lease renewal failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Keys of sessions held here, and since when; filled by the registry (see heldKeys). */
  heldKeys: () => Iterable<[string, number]> = () => [];

  /**
   * The store writes a reply must wait for (a create, a move after rotation, a kill). Rejects when
   * a rotation's move failed and fails again now: the reply must not hand out the new id, which
   * no other replica could find.
   */
  settled(session: LiveSession<Model>): Promise<void> | undefined {
    return this.writes.settled(session);
  }

  holdOf(session: LiveSession<Model>): Hold | undefined {
    return this.holds.get(session);
  }

  private stored(key: string, handle: string, state: SessionState<Model>): StoredSession {
    return {
      key,
      handle,
      model: this.codec.encode(state.model),
      outSeq: state.outSeq,
      inputSeqs: [...state.inputSeqs],
      pageSeqs: [...state.pageSeqs],
      user: state.user,
      boundAt: state.boundAt,
    };
  }
}
