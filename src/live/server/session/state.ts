/**
 * A live session's durable state as one immutable value (docs/protocol.md#sequence-numbers): what
 * a session store snapshots and what another process restores a session from. Everything else a
 * session holds (its rendered tree, open streams, timers, recent frames) is rebuilt or reopened
 * from this and the app, never stored.
 *
 * The state is replaced, never changed in place: the pure step (src/live/server/session/step.ts)
 * returns a new one, so a step that fails or is refused leaves the one before it intact.
 */
import { VersionedMap } from "./versioned-map.ts";

export type SessionState<Model> = {
  /** The app's model. */
  readonly model: Model;
  /** The seq of the last frame sent, reply or SSE; every frame takes the next one. */
  readonly outSeq: number;
  /**
   * Per input id, the largest client seq seen; only rises; dropped when the input leaves the tree.
   * Versioned, so that a keystroke's new state costs one entry, not a copy of every input's.
   */
  readonly inputSeqs: VersionedMap<string, number>;
  /**
   * Per page id (one page load of the client), the highest event seq processed, least recent
   * first; at most RECENT_PAGES of them (see step.ts, `recordIfNew`).
   */
  readonly pageSeqs: ReadonlyMap<string, number>;
  /** The bound user (docs/auth.md#live-sessions-and-the-gate), canonical String id. */
  readonly user: string | undefined;
  /** When the current binding (or the session) began, in ms: the revocation gate's issuedAt. */
  readonly boundAt: number;
};

const NO_SEQS: ReadonlyMap<string, number> = new Map();
/** Shared by every state without input seqs: a version's first entry starts a map of its own. */
const NO_INPUT_SEQS = VersionedMap.of<string, number>();

/** The state of a session that starts now with `model`: no frame sent, no input seen, no user. */
export function initialState<Model>(model: Model, now: number): SessionState<Model> {
  return { model, outSeq: 0, inputSeqs: NO_INPUT_SEQS, pageSeqs: NO_SEQS, user: undefined, boundAt: now };
}

/** The state with a user bound from `boundAt` on. */
export function withUser<Model>(state: SessionState<Model>, user: string, boundAt: number): SessionState<Model> {
  return { ...state, user, boundAt };
}

/** The state for a new page load: its client counts event seqs from 1 again (docs/protocol.md#sequence-numbers). */
export function forNewPage<Model>(state: SessionState<Model>): SessionState<Model> {
  return state.inputSeqs.size === 0 ? state : { ...state, inputSeqs: NO_INPUT_SEQS };
}

/** The state after one more frame: its seq is the new outSeq. */
export function withNextFrame<Model>(state: SessionState<Model>): SessionState<Model> {
  // Every field named, not spread: this runs for every frame.
  const { model, outSeq, inputSeqs, pageSeqs, user, boundAt } = state;
  return { model, outSeq: outSeq + 1, inputSeqs, pageSeqs, user, boundAt };
}

/** What a session store (`SessionStore`) keeps of a session: its durable snapshot. */
export type SessionSnapshot = {
  /** The session's id (what its cookie or token names). */
  readonly id: string;
  /** The session's model, as `update` last returned it. */
  readonly model: unknown;
  /** The sequence number of the last frame sent to the page (docs/protocol.md#sequence-numbers). */
  readonly outSeq: number;
  /** Per form control id, the highest input seq applied, so a resent input is not applied twice. */
  readonly inputSeqs: ReadonlyArray<readonly [string, number]>;
  /** Per page id, the highest event seq processed (absent in snapshots written before it was kept). */
  readonly pageSeqs?: ReadonlyArray<readonly [string, number]>;
  /** The user the session is bound to (`Live.bindSessionUser`), or undefined. */
  readonly user: string | undefined;
  /** When the session was bound to its user, in epoch milliseconds (0 when unbound). */
  readonly boundAt: number;
  /** When the snapshot was taken, in epoch milliseconds. */
  readonly updatedAt: number;
};

/** The plain, JSON-friendly record a store keeps for session `id`, written at `updatedAt`. */
export function snapshotOf(id: string, state: SessionState<unknown>, updatedAt: number): SessionSnapshot {
  return {
    id,
    model: state.model,
    outSeq: state.outSeq,
    inputSeqs: [...state.inputSeqs],
    pageSeqs: [...state.pageSeqs],
    user: state.user,
    boundAt: state.boundAt,
    updatedAt,
  };
}

/** The state a snapshot records, for a session restored from a store. */
export function stateFromSnapshot<Model>(snapshot: SessionSnapshot): SessionState<Model> {
  return {
    model: snapshot.model as Model,
    outSeq: snapshot.outSeq,
    inputSeqs: VersionedMap.of(snapshot.inputSeqs),
    pageSeqs: new Map(snapshot.pageSeqs ?? []),
    user: snapshot.user,
    boundAt: snapshot.boundAt,
  };
}
