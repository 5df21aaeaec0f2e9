/**
 * Wire names of the live server: routes, headers, cookies, statuses and limits
 * (live-input-authority.md §Endpoints, §Authentication, §Errors, §Limits). The browser client
 * imports these too; nothing else spells them.
 */

/** Routes, relative to the app's base path. */
export const EVENT_PATH = "/_svc/event";
export const SUBSCRIBE_PATH = "/_svc/subscribe";
/** The spec names GET /_svc/sse beside /_svc/subscribe; it is served as an alias of it. */
export const SSE_ALIAS_PATH = "/_svc/sse";
/** The full render of the current tree, for a client that must resync (a keep whose node is missing). */
export const RENDER_PATH = "/_svc/render";
/** Exchanges a rotated-away session id for the current one, for the tab holding the rotation ticket. */
export const ROTATE_PATH = "/_svc/rotate";
export const CLIENT_PATH = "/_svc/client.js";

export const CSRF_HEADER = "X-Svc-Csrf";
export const CSRF_COOKIE = "__svc_csrf";
export const STATUS_HEADER = "X-Svc-Status";
export const SID_HEADER = "X-Svc-Sid";
export const SEQ_HEADER = "X-Svc-Seq";
export const ACK_HEADER = "X-Svc-Ack-Inputs";
/** Carries the one-time rotation ticket to the tab whose event rotated the session. */
export const ROTATION_HEADER = "X-Svc-Rotation";

/** Values of X-Svc-Status. */
export const SESSION_LOST = "session-lost";
export const SESSION_ROTATING = "session-rotating";
export const CSRF_FAILED = "csrf-failed";
export const APP_ERROR = "app-error";
export const GATE_UNAVAILABLE = "gate-unavailable";

/** Page meta names the client reads at start. */
export const META_CSRF = "svc-csrf";
export const META_SEQ = "svc-seq";
export const META_BASE = "svc-base";
/** The session's public handle, posted back as the advisory `sessionId`. */
export const META_SESSION = "svc-session";

/** The session cookie: svc_sid for the host app, svc_<name>_sid for a named sub-app (§Authentication 1). */
export function sessionCookieName(appName: string | undefined): string {
  return appName === undefined || appName === "" ? "svc_sid" : `svc_${appName}_sid`;
}
/** A Secure session cookie carries the __Host- prefix; both spellings are read. */
export const HOST_PREFIX = "__Host-";

/** §Limits, rotated-away session id grace period. */
export const ROTATION_GRACE_MS = 60_000;

/** Limits the spec leaves open (§Limits: "not shown"), chosen here. */
export const LIMITS = {
  /** Largest event request body; larger is 413. */
  maxBodyBytes: 1024 * 1024,
  /** Most entries in `args`, `batch` and `inputState`. */
  maxArgs: 64,
  maxBatch: 256,
  maxInputs: 1024,
  /** Longest message name, handler id or input id. */
  maxNameLength: 512,
} as const;
