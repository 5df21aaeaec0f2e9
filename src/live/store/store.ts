/**
 * The live session store that several replicas share (docs/deployment.md#several-replicas): each
 * session's durable state, the ids that are dead, and which replica owns each session.
 *
 * Ownership. One replica at a time owns a session, under a lease that carries an epoch. `create`
 * makes the creator the owner at epoch 1; `take` makes another replica the owner and bumps the
 * epoch, whether or not the old lease has run out (a replica serving a request for a session it
 * does not hold takes it over); `renew` extends every lease a replica still holds; `release` gives
 * one up (drain). `save` is fenced on the epoch: it writes only while the saver's epoch is still
 * the session's, so an owner that was paused or cut off and then resumes can never overwrite a
 * newer state; its save reports `false` and it must drop its copy.
 *
 * Sessions are stored under `sessionKey(id)` (the SHA-256 of the cookie), never under the id.
 * A notice (a bus payload, see src/live/store/bus.ts) given to `save` or `kill` is published in
 * the same statement as the write, so it goes out if and only if the write commits; a save's
 * frame notice only once another replica streams the session (see `ownership`).
 */

/** What is stored of a session: its durable state with the model as the codec's text. */
export type StoredSession = {
  /** sessionKey(id). */
  readonly key: string;
  /** The public handle a page script sees as `sessionId` (not a secret). */
  readonly handle: string;
  readonly model: string;
  readonly outSeq: number;
  readonly inputSeqs: ReadonlyArray<readonly [string, number]>;
  readonly pageSeqs: ReadonlyArray<readonly [string, number]>;
  readonly user: string | undefined;
  readonly boundAt: number;
};

/**
 * A rotation of a session's id (docs/protocol.md#session-rotation), kept so that any replica
 * honours its grace period: the old id's key, the old handle, both ids sealed (seal.ts), and the
 * SHA-256 of the one-time ticket. `graceMs` from the write; the store keeps it on its own clock.
 */
export type StoredRotation = {
  readonly fromHandle: string;
  readonly fromSealed: string;
  readonly toSealed: string;
  readonly ticketHash: string;
  readonly graceMs: number;
};

/** A rotation the new session's holder learns of at takeover: for the old id's token and handle. */
export type RotatedFrom = { readonly fromHandle: string; readonly fromSealed: string; readonly remainingMs: number };

/** A rotation found by its old key, within its grace period. */
export type RotationFound = { readonly toKey: string; readonly toSealed: string; readonly ticketHash: string };

/** A session read without taking it (`load`): its state, its epoch, and who owns it. */
export type Loaded = {
  readonly session: StoredSession;
  readonly epoch: number;
  readonly owner: string | undefined;
  /** The rotations to this session still within their grace period. */
  readonly rotatedFrom: readonly RotatedFrom[];
};

/** A save that claims a loaded session: who owned it at the load (told of the move). */
export type Claim = { readonly previousOwner: string | undefined };

/** A session taken over: its state, the new epoch, and who held it before. */
export type Taken = {
  readonly session: StoredSession;
  readonly epoch: number;
  /** The replica that owned it before (undefined when none did, or it was released). */
  readonly previousOwner: string | undefined;
  /** The rotations to this session still within their grace period. */
  readonly rotatedFrom: readonly RotatedFrom[];
};

/**
 * Who owns a session now, for a replica deciding whether to take it over or only listen, and
 * whom it is bound to, for the revocation gate of a stream held away from the owner.
 */
export type Ownership = {
  readonly owner: string | undefined;
  readonly epoch: number;
  readonly leaseLive: boolean;
  readonly outSeq: number;
  readonly user: string | undefined;
  readonly boundAt: number;
};

export interface LiveStore {
  /** False for the in-memory store: no other process can hold a session, so saves need not wait. */
  readonly shared: boolean;
  /** Records a new session owned by `owner`; resolves to its epoch. */
  create(session: StoredSession, owner: string): Promise<number>;
  /**
   * Makes `owner` the owner with the next epoch; undefined when the session is unknown or dead.
   * A shared store tells the previous owner (a "taken" notice, see bus.ts) in the same statement.
   */
  take(key: string, owner: string): Promise<Taken | undefined>;
  /**
   * Reads a session without taking it (docs/deployment.md#several-replicas): the state, its epoch and owner. A
   * replica that loads a session this way owns it only once its first save claims it (`claim`).
   */
  load(key: string): Promise<Loaded | undefined>;
  /**
   * Writes the state while `epoch` is still the session's; false when another replica took it or
   * saved since. With `claim`, the save also makes `owner` the owner at epoch + 1 and tells the
   * previous owner (a "taken" notice), in the same statement: a load and one save move a session.
   */
  save(session: StoredSession, owner: string, epoch: number, notice?: string, claim?: Claim): Promise<boolean>;
  /** Gives a lease up, so the next replica to need the session takes it without waiting. */
  release(key: string, owner: string, epoch: number): Promise<void>;
  /** Extends the leases `owner` still holds; resolves to their keys (the others were taken). */
  renew(owner: string): Promise<ReadonlySet<string>>;
  /**
   * Who owns the session; with `streaming`, this replica is about to stream it while another owns
   * it, which the store records (in the same statement) so that the owner's saves publish frames.
   */
  ownership(key: string, how?: { readonly streaming: boolean }): Promise<Ownership | undefined>;
  /**
   * Moves a session to a new key (its id rotated): the new key's row is the session's state, owned
   * by `owner` at epoch 1, and the old key is dead, in one transaction; with `rotation`, the old
   * key answers `rotation` for its grace period, and earlier rotations to the old key now lead to the new one.
   */
  move(fromKey: string, session: StoredSession, owner: string, rotation?: StoredRotation): Promise<void>;
  /** The rotation away from `fromKey`, while within its grace period and its session lives. */
  rotation(fromKey: string): Promise<RotationFound | undefined>;
  /** Ends a session: its state is deleted and its key stays dead (a copy of the cookie gets nothing), rotations to it too. */
  kill(key: string, notice?: string): Promise<void>;
  isDead(key: string): Promise<boolean>;
  /** Which of these keys still have a session (the others ended or expired), in one read. */
  alive(keys: readonly string[]): Promise<ReadonlySet<string>>;
  /** Deletes sessions idle for `idleMs` whose lease has run out, and expired dead keys. */
  sweep(idleMs: number): Promise<void>;
}

/** How long a lease lasts without renewal; the owner renews every third of it. */
export const LEASE_MS = 15_000;
/** How long a killed key stays on the dead list; past that it is simply unknown, which is as dead. */
export const DEAD_KEY_TTL_MS = 24 * 60 * 60 * 1000;
