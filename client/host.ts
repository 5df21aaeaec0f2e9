/**
 * What the live client is given: the page's Web APIs (injectable, so the core runs without a
 * network), the values the page carries in its meta tags, and the client's tunable delays.
 */
import type { EventSourceCtor } from "./sse.ts";

/** What the client needs from the page (injectable, so the core runs without a network). */
export type Host = {
  readonly doc: Document;
  readonly fetch: (url: string, init: RequestInit) => Promise<Response>;
  readonly EventSource?: EventSourceCtor | undefined;
  readonly beacon?: ((url: string, body: string) => boolean) | undefined;
  readonly reload: () => void;
  readonly FormData?: typeof FormData;
  readonly log?: (message: string) => void;
};

/** The values the page carries in its meta tags. */
export type Boot = { csrf: string; seq: number; base: string; sessionId: string };

/** The client's delays; every one has a default (DEFAULTS). */
export type Options = {
  /** Debounce of input sends, ms (data-svc-debounce on an element overrides). */
  debounceMs?: number;
  /** How long a frame waits for a missing earlier one before a resync, ms. */
  gapMs?: number;
  /** First retry delay for session-rotating and unanswered events, ms (doubles each time). */
  retryMs?: number;
  /** The longest wait between two attempts of an unanswered event, ms (docs/protocol.md#resend). */
  retryCapMs?: number;
  /** An event unanswered for this long is sent again, ms. */
  timeoutMs?: number;
  /** How long events keep failing before the page shows its reconnecting state, ms. */
  reconnectingMs?: number;
};

/** The delays the client uses where Options leaves one out. */
export const DEFAULTS = {
  debounceMs: 150,
  gapMs: 1500,
  retryMs: 100,
  retryCapMs: 5_000,
  timeoutMs: 10_000,
  reconnectingMs: 1_000,
} as const;
