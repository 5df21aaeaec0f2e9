/**
 * Looking a session up at another replica's store (docs/deployment.md#several-replicas): a cookie
 * naming a session this replica does not hold takes it over from its saved state, and concurrent
 * requests for one id share one takeover. What it answers is a lookup's `Resolved`
 * (src/live/server/registry/lookup.ts).
 */
import type { LiveSession } from "../session/session.ts";
import type { SessionFrames } from "../streams/session-frames.ts";
import type { SessionState } from "../session/state.ts";
import type { SharedSessions } from "./shared-sessions.ts";
import { ELSEWHERE, LOST, type Resolved, ROTATING } from "../registry/lookup.ts";
import type { RotatedFrom } from "../registry/session-keeping.ts";

/** Builds a session taken over from the shared store (its effects not yet started). */
export type BuildSession<Model> = (id: string, state: SessionState<Model>, frames: SessionFrames) => LiveSession<Model>;

/** What a takeover needs of the registry. */
export type TakeoverParts<Model> = {
  readonly shared: () => SharedSessions<Model>;
  readonly build: () => BuildSession<Model>;
  /** Set by drain: no takeover on this replica. */
  readonly draining: () => boolean;
  /** Holds a session taken over here from now on, under `id`, with its stored handle and the ids it rotated away from. */
  readonly adopt: (id: string, session: LiveSession<Model>, handle: string, rotatedFrom: readonly RotatedFrom[]) => void;
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
