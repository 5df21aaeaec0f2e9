/**
 * What a live app's table of sessions is built with (src/live/server/registry/registry.ts): the
 * app's options as the registry reads them (defaults in src/live/server/app/options.ts).
 */
import type { SessionBoundsOptions } from "./bounds.ts";
import type { LiveSession } from "../session/session.ts";
import type { SessionStore } from "./snapshot-store.ts";
import type { RenderProbe } from "../../probe.ts";

/** The registry's options. */
export type RegistryOptions<Model = unknown> = {
  /** Receives each session's snapshot after a change, and its end; none by default (see app/options.ts). */
  readonly store: SessionStore | undefined;
  readonly now: () => number;
  /** A session with no interaction for this long ends. */
  readonly idleTimeoutMs: number;
  /** A session with no interaction for this long drops its rendered tree (re-rendered on demand). */
  readonly treeIdleMs: number;
  readonly sweepEveryMs: number;
  /** How many bytes of rendered trees sessions keep between events (the most recently used ones; src/live/server/registry/tree-budget.ts). */
  readonly maxTreeBytes: number;
  /** How many sessions, and for how long sessions that never connect, are kept (src/live/server/registry/bounds.ts). */
  readonly bounds?: SessionBoundsOptions;
  /** Called when a user is bound (docs/auth.md#live-sessions-and-the-gate); default: record it. */
  readonly onBind?: (session: LiveSession<Model>, userId: string) => void;
  /** The test hook its sessions' renders count into (src/live/probe.ts); none: nothing is counted. */
  readonly renderProbe?: RenderProbe;
};
