/**
 * The SSE streams connected to this replica, by the session's store key (docs/deployment.md#several-replicas):
 * a held session's streams are its own frames; a session owned by another replica keeps its
 * streams here and gets its frames over the bus, with the user it was bound to, so that a revoke
 * or disable can end them too.
 */
import type { Ownership } from "../../store/store.ts";
import type { Frame, FrameSink } from "../streams/sse-wire.ts";
import { SessionFrames } from "../streams/session-frames.ts";

/** The user a streamed session was bound to, and when (for the gate's verdict). */
type Bound = { readonly user: string | undefined; readonly boundAt: number };

export class StreamsHere {
  private readonly frames = new Map<string, SessionFrames>();
  /** Sessions owned elsewhere that are streamed here: the user each was bound to. */
  private readonly remote = new Map<string, Bound>();

  /** The streams of a session on this replica (made on first use). */
  framesFor(key: string): SessionFrames {
    let frames = this.frames.get(key);
    if (frames === undefined) this.frames.set(key, frames = new SessionFrames());
    return frames;
  }

  /** A session held here under `key`: its streams are its own frames. */
  held(key: string, frames: SessionFrames): void {
    this.frames.set(key, frames);
    this.remote.delete(key);
  }

  /** A session held here is now stored under another key (a rotation): its streams follow it. */
  rekeyed(from: string, to: string, frames: SessionFrames): void {
    this.frames.delete(from);
    this.frames.set(to, frames);
  }

  /** A session held here is no longer (it moved): its open streams stay, listening for the new owner's frames. */
  letGo(key: string, bound: Bound): void {
    const frames = this.frames.get(key);
    if (frames !== undefined && frames.streamCount > 0) this.remote.set(key, bound);
    else this.frames.delete(key);
  }

  /**
   * A stream of a session this replica does not hold joins its streams here, before the session's
   * ownership is read: it gets every frame heard from then on. `listen` follows, or the sink closes.
   */
  attach(key: string, sink: FrameSink): void {
    this.framesFor(key).open(sink);
  }

  /**
   * An attached stream of a session owned by another replica. Returns what the stream starts
   * with: the sync event with the owner's seq, or nothing for a stream that resumes at that seq
   * (resume.ts; one resuming from earlier is taken over instead). A frame heard since the stream
   * attached went out already; the client drops what it has.
   */
  listen(key: string, owner: Ownership, lastEventId: string | null): string {
    this.remote.set(key, { user: owner.user, boundAt: owner.boundAt });
    return this.framesFor(key).catchUp(lastEventId, owner.outSeq, () => "");
  }

  /** A stream closed: a session neither held nor streamed here is forgotten. */
  closed(key: string | undefined, sink: FrameSink, held: boolean): void {
    if (key === undefined) return;
    const frames = this.frames.get(key);
    frames?.closed(sink);
    if (!held && frames !== undefined && frames.streamCount === 0) this.forget(key);
  }

  /** A frame of a session owned elsewhere, heard on the bus: to its streams here. */
  send(key: string, frame: Frame): void {
    this.frames.get(key)?.sendHeard(frame);
  }

  /** The session ended: its streams here get the lost signal and close. */
  ended(key: string): void {
    this.frames.get(key)?.closeAll({ lost: true });
    this.forget(key);
  }

  /** Drops what is known of a key (its streams, if any, are left to close themselves). */
  forget(key: string): void {
    this.frames.delete(key);
    this.remote.delete(key);
  }

  /** Closes every stream plainly (drain): the clients reconnect to another replica. */
  closeAll(): void {
    for (const frames of this.frames.values()) frames.closeAll({ lost: false });
    this.frames.clear();
    this.remote.clear();
  }

  /** Whether streams here listen to the session stored under `key`, owned elsewhere. */
  listening(key: string): boolean {
    return this.remote.has(key);
  }

  /** Keys of sessions owned elsewhere and streamed here. */
  remoteKeys(): string[] {
    return [...this.remote.keys()];
  }

  /** Streams held here for sessions owned elsewhere whose user is `user`. */
  remoteOf(user: string): { key: string; boundAt: number }[] {
    const found: { key: string; boundAt: number }[] = [];
    for (const [key, bound] of this.remote) if (bound.user === user) found.push({ key, boundAt: bound.boundAt });
    return found;
  }

  /** The users of the streams held here for sessions owned elsewhere (for the re-check after a resume). */
  remoteUsers(): Set<string> {
    const users = new Set<string>();
    for (const { user } of this.remote.values()) if (user !== undefined) users.add(user);
    return users;
  }
}
