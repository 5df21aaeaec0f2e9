/**
 * The ids sessions rotated away from (docs/protocol.md#session-rotation): each answers "rotating"
 * for its grace period and "lost" after, and the rotation's one-time ticket waits for the reply to
 * the request that caused it. The session registry (src/live/server/registry/registry.ts) owns one table.
 */
import { constantTimeEqual } from "../../../auth/constant-time.ts";
import { ROTATION_GRACE_MS } from "../../../protocol/mod.ts";
import type { LiveSession } from "../session/session.ts";

/** A session's move to a new id: the id and handle it left, the session, when, and the ticket. */
export type Rotation<Model = unknown> = {
  readonly from: string;
  readonly fromHandle: string;
  readonly to: LiveSession<Model>;
  readonly at: number;
  /** The one-time ticket; undefined for a rotation another replica made (its ticket is checked in the shared store). */
  readonly ticket: string | undefined;
};

/** Rotations by the id they left, and the tickets not yet handed to a reply. */
export class RotationTable<Model> {
  private readonly rotations = new Map<string, Rotation<Model>>();
  /** Rotations made while processing a request, picked up by that request's reply. */
  private readonly pendingTickets = new Map<LiveSession<Model>, Rotation<Model>>();

  constructor(private readonly now: () => number) {}

  /** Records a rotation; its ticket waits for the reply (`take`). */
  add(rotation: Rotation<Model>): void {
    this.rotations.set(rotation.from, rotation);
    this.pendingTickets.set(rotation.to, rotation);
  }

  /**
   * Rotations another replica made, learnt when this one took their session over
   * (docs/deployment.md#rotation-on-any-replica): the old ids answer for the rest of their grace period.
   */
  adopt(
    session: LiveSession<Model>,
    rotatedFrom: readonly { readonly id: string; readonly handle: string; readonly remainingMs: number }[],
  ): void {
    const now = this.now();
    for (const from of rotatedFrom) {
      const at = now - (ROTATION_GRACE_MS - from.remainingMs);
      this.rotations.set(from.id, { from: from.id, fromHandle: from.handle, to: session, at, ticket: undefined });
    }
  }

  /** The rotation away from `id`, while it still answers "rotating" (its session alive, within the grace period). */
  rotating(id: string): Rotation<Model> | undefined {
    const rotation = this.rotations.get(id);
    return rotation !== undefined && rotation.to.isLive && this.now() - rotation.at < ROTATION_GRACE_MS ? rotation : undefined;
  }

  /** Whether `handle` is one this session rotated away from within the grace period (the body named its old id). */
  rotatedHandle(session: LiveSession<Model>, handle: string): boolean {
    const now = this.now();
    for (const rotation of this.rotations.values()) {
      if (rotation.to === session && rotation.fromHandle === handle && now - rotation.at < ROTATION_GRACE_MS) return true;
    }
    return false;
  }

  /** The ids this session rotated away from that still answer "rotating" (their grace period). */
  *rotatedIds(session: LiveSession<Model>): IterableIterator<string> {
    const now = this.now();
    for (const [from, rotation] of this.rotations) {
      if (rotation.to === session && now - rotation.at < ROTATION_GRACE_MS) yield from;
    }
  }

  /** The session a rotated-away id moved to, for the holder of its ticket only. */
  exchange(oldId: string | undefined, ticket: string | undefined): LiveSession<Model> | undefined {
    if (oldId === undefined || ticket === undefined || ticket === "") return undefined;
    const rotation = this.rotating(oldId);
    if (rotation?.ticket === undefined) return undefined;
    if (!constantTimeEqual(rotation.ticket, ticket)) return undefined;
    return rotation.to;
  }

  /** The rotation a request's processing caused, once (the reply hands its ticket to that tab). */
  take(session: LiveSession<Model>): Rotation<Model> | undefined {
    const rotation = this.pendingTickets.get(session);
    this.pendingTickets.delete(session);
    return rotation;
  }

  /** A session ended: the ids it rotated away from die with it. */
  forget(session: LiveSession<Model>): void {
    for (const [from, rotation] of this.rotations) if (rotation.to === session) this.rotations.delete(from);
  }

  /** Drops the rotations whose grace period is over at `now`. */
  sweep(now: number): void {
    for (const [from, rotation] of this.rotations) {
      if (now - rotation.at >= ROTATION_GRACE_MS) this.rotations.delete(from);
    }
  }
}
