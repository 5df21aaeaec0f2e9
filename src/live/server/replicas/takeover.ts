/**
 * Looking a session up at another replica's store (docs/deployment.md#several-replicas): a cookie
 * naming a session this replica does not hold takes it over from its saved state, and concurrent
 * requests for one id share one takeover. What the lookup answers is `Resolved`.
 */
import type { LiveSession } from "../session/session.ts";
import type { SessionFrames } from "../streams/session-frames.ts";
import type { SessionState } from "../session/state.ts";
import type { Loaded, SharedSessions } from "./shared-sessions.ts";
import type { Rotation } from "../registry/rotation-table.ts";

/** What the session registry answers for a cookie's id. */
export type Resolved<Model> =
  | { readonly kind: "live"; readonly session: LiveSession<Model> }
  /** A rotated-away id in its grace period (`rotation` when made here; one made elsewhere is in the shared store). */
  | { readonly kind: "rotating"; readonly rotation?: Rotation<Model> }
  | { readonly kind: "lost" }
  /** Held by no one here, and this replica is draining: another replica must take it (503, retry). */
  | { readonly kind: "elsewhere" };

/** No session by that id, here or in the store. */
export const LOST = { kind: "lost" } as const;
/** A session this draining replica will not take. */
export const ELSEWHERE = { kind: "elsewhere" } as const;
/** An id another replica rotated away from, within its grace period (docs/deployment.md#rotation-on-any-replica). */
export const ROTATING = { kind: "rotating" } as const;

/** Builds a session taken over from the shared store (its effects not yet started). */
export type BuildSession<Model> = (id: string, state: SessionState<Model>, frames: SessionFrames) => LiveSession<Model>;

/** What a takeover needs of the registry. */
export type TakeoverParts<Model> = {
  readonly shared: () => SharedSessions<Model>;
  readonly build: () => BuildSession<Model>;
  /** Set by drain: no takeover on this replica. */
  readonly draining: () => boolean;
  /** Holds a session taken over here from now on, under `id`, with its stored handle and the ids it rotated away from. */
  readonly adopt: (id: string, session: LiveSession<Model>, handle: string, rotatedFrom: Loaded<Model>["rotatedFrom"]) => void;
};

/** The takeovers in progress, by cookie id. */
export class Takeovers<Model> {
  private readonly taking = new Map<string, Promise<Resolved<Model>>>();

  constructor(private readonly parts: TakeoverParts<Model>) {}

  /** The takeover of `id`: the one in progress, or a new one (`lazy`: claimed by its first save, see SharedSessions.take). */
  take(id: string, how: { readonly lazy: boolean }): Promise<Resolved<Model>> {
    let taking = this.taking.get(id);
    if (taking === undefined) {
      taking = this.takeOver(id, how).finally(() => this.taking.delete(id));
      this.taking.set(id, taking);
    }
    return taking;
  }

  /** Settles when every takeover already on its way has finished. */
  settled(): Promise<unknown> {
    return Promise.allSettled([...this.taking.values()]);
  }

  /** Loads a session from the shared store and holds it here from now on. */
  private async takeOver(id: string, how: { readonly lazy: boolean }): Promise<Resolved<Model>> {
    const shared = this.parts.shared();
    await shared.ready;
    const loaded = await shared.take(id, how);
    // A rotated-away id: another replica may have rotated it, within the grace period.
    if (loaded === undefined) return (await shared.rotation(id)) === undefined ? LOST : ROTATING;
    if (this.parts.draining()) {
      // Drain began while this takeover was on its way: give the session straight back.
      await shared.store.release(loaded.key, shared.owner, loaded.epoch);
      return ELSEWHERE;
    }
    const session = this.parts.build()(id, loaded.state, loaded.frames);
    shared.hold(session, loaded.key, loaded.epoch, loaded.claim);
    this.parts.adopt(id, session, loaded.handle, loaded.rotatedFrom);
    return { kind: "live", session };
  }
}
