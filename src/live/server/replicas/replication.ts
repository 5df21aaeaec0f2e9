/**
 * Sets up a live app's shared sessions on Postgres (docs/deployment.md#several-replicas): the
 * store, the bus, and the one route that differs when the session is held by another replica: an
 * SSE stream, which stays here and gets the session's frames over the bus rather than moving the
 * session (an open stream would otherwise pull it away from the replica serving its events).
 */
import type { Db } from "../../../db/db.ts";
import type { ModelCodec } from "../../store/codec.ts";
import { openSharedStore, type SharedBusOption } from "../../store/shared-bus.ts";
import type { Sealer } from "../../store/seal.ts";
import { recheckEveryone } from "../access/eviction-listener.ts";
import type { RevocationGate } from "../access/revocation-gate.ts";
import type { SessionRegistry } from "../registry/registry.ts";
import { ELSEWHERE, GATE_UNAVAILABLE, LOST, type Refusal, type Resolved } from "../registry/lookup.ts";
import type { BuildSession } from "./takeover.ts";
import { SharedSessions } from "./shared-sessions.ts";
import { SharedKeeping } from "./shared-keeping.ts";
import { sessionKey } from "../../store/session-key.ts";
import type { Ownership } from "../../store/store.ts";
import { openFrameStream } from "../streams/sse-stream.ts";

/** A stream listening here for the frames of a session another replica holds: the body of its reply. */
export type Listening = { readonly kind: "listening"; readonly body: ReadableStream<Uint8Array> };

export type Replication = {
  /** Settles once this replica listens on the bus. */
  readonly ready: Promise<void>;
  /**
   * For a subscribe whose session this replica does not hold: the stream, listening here, when
   * another replica holds the session under a live lease; else what resolving it gives (taken
   * over here, lost, rotating) or why not. Undefined when the session is held here: the ordinary route.
   */
  streamHere(
    id: string | undefined,
    lastFrame: string | null,
    heartbeatMs: number,
  ): Promise<Resolved<unknown> | Refusal | Listening> | undefined;
};

/** What sharing a live app's sessions needs. */
export type ShareOptions<Model> = {
  readonly registry: SessionRegistry<Model>;
  readonly db: Db;
  /** The app's name in the store: its session cookie's name. */
  readonly app: string;
  readonly codec: ModelCodec<Model>;
  readonly now: () => number;
  /** Builds a session taken over from the store. */
  readonly build: BuildSession<Model>;
  /** The app's revocation gate, once it has one: a bus that reconnects re-checks every held user. */
  readonly gate: () => RevocationGate | undefined;
  /** Seals the rotated-away ids the store keeps (src/live/store/seal.ts). */
  readonly sealer: Sealer;
  /** The bus between replicas (docs/deployment.md#the-bus); Postgres NOTIFY by default. */
  readonly bus?: SharedBusOption;
};

/** Shares a registry's sessions through Postgres: the store, the bus that tells replicas of moves and ends, and streams held here. */
export function shareSessions<Model>(
  { registry, db, app, codec, now, build, gate, sealer, bus: busOption }: ShareOptions<Model>,
): Replication {
  const { store, bus: opening } = openSharedStore(db, app, busOption);
  const shared = new SharedSessions<Model>(store, { app, codec, now, sealer });
  const keeping = new SharedKeeping(shared, build);
  const ready = opening.then((bus) =>
    shared.start(bus, {
      moved: (key) => keeping.movedKey(key),
      ended: (key) => keeping.endedElsewhere(key),
      resumed: () => {
        const checking = gate();
        if (checking !== undefined) void recheckEveryone(checking, registry);
      },
    })
  );
  // A replica that cannot listen still serves; it learns of takeovers from its fenced saves.
  shared.ready = ready.catch(() => undefined);
  registry.keepIn(keeping);
  const sharing: Sharing<Model> = { registry, shared, keeping, gate };
  return {
    ready,
    streamHere(id, lastFrame, heartbeatMs) {
      if (id === undefined || registry.holds(id)) return undefined;
      return streamOfElsewhere(sharing, id, { lastFrame, heartbeatMs });
    },
  };
}

/** The parts of a replica's sharing that a stream of a session held elsewhere needs. */
type Sharing<Model> = {
  readonly registry: SessionRegistry<Model>;
  readonly shared: SharedSessions<Model>;
  readonly keeping: SharedKeeping<Model>;
  readonly gate: () => RevocationGate | undefined;
};

/** `streamHere` for a session this replica does not hold. */
async function streamOfElsewhere<Model>(
  { shared, keeping, ...sharing }: Sharing<Model>,
  id: string,
  { lastFrame, heartbeatMs }: { readonly lastFrame: string | null; readonly heartbeatMs: number },
): Promise<Resolved<unknown> | Refusal | Listening> {
  await shared.ready;
  const key = await sessionKey(id);
  // The stream joins this replica's streams of the session before the ownership read marks
  // the session as streamed from elsewhere: from that mark on the owner publishes every
  // frame, and one published while the checks below are awaited (a task's result, saved in
  // that window) must reach this stream, not find no stream here.
  const { sink, body, write } = openFrameStream({
    heartbeatMs,
    onHeartbeat: () => {},
    onClose: (closed) => shared.streams.closed(key, closed, keeping.holdsKey(key)),
  });
  shared.streams.attach(key, sink);
  try {
    const where = await whereToStream({ shared, keeping, ...sharing }, id, lastFrame);
    if (where.kind !== "owned_elsewhere") {
      sink.close();
      return where;
    }
    write(shared.streams.listen(where.owner.key, where.owner, lastFrame));
    return { kind: "listening", body } as const;
  } catch (error) {
    sink.close();
    throw error;
  }
}

/** A session another replica holds under a live lease: the stream listens here for its frames. */
type OwnedElsewhere = { readonly kind: "owned_elsewhere"; readonly owner: Ownership & { readonly key: string } };

/**
 * Where a stream of a session not held here goes: listening here for the owner's frames, or what
 * resolving the session gives (taken over here, lost, elsewhere), or why not (the gate).
 */
async function whereToStream<Model>(
  { registry, shared, gate }: Sharing<Model>,
  id: string,
  lastFrame: string | null,
): Promise<Resolved<unknown> | Refusal | OwnedElsewhere> {
  const owner = await shared.ownership(id);
  // Held by no one (its owner drained or died): taken over here, so its timers run again.
  // A stream resuming from a frame other than the owner's last (Last-Event-ID, or a page's
  // `since`) is taken over too: the frames or the render it needs are the session's, which
  // this replica does not hold (docs/protocol.md#resume). One resuming from the owner's
  // last frame listens here and is sent nothing first; only a stream that names no frame
  // starts with a sync.
  const resuming = lastFrame !== null && lastFrame !== "" && lastFrame !== String(owner?.outSeq);
  if (owner === undefined || !owner.leaseLive || owner.owner === shared.owner || resuming) {
    return (await registry.resolve(id)) as Resolved<unknown>;
  }
  if (registry.draining) return ELSEWHERE;
  const checking = gate();
  if (checking !== undefined && owner.user !== undefined) {
    const verdict = await checking.verdictFor(owner.user, owner.boundAt);
    if (verdict === "unavailable") return GATE_UNAVAILABLE;
    // Evicted: the kill ends the streams of that key here, this one with them.
    if (verdict === "evict") {
      await shared.killRemote(owner.key);
      return LOST;
    }
  }
  // A drain that began during the checks above has closed the streams here already: this
  // one would stay open, heard by no one, until the drain's forced close.
  if (registry.draining) return ELSEWHERE;
  return { kind: "owned_elsewhere", owner };
}
