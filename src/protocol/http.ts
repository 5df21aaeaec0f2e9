/**
 * The protocol's HTTP surface: routes, headers, cookies, page meta names, statuses and what each
 * means, and limits (docs/protocol.md#endpoints, docs/protocol.md#errors-and-statuses,
 * docs/protocol.md#limits). The browser client imports these too; nothing else spells them.
 */

/** Routes, relative to the app's base path (docs/protocol.md#endpoints). */
export const EVENT_PATH = "/_svc/event";
export const SUBSCRIBE_PATH = "/_svc/subscribe";
/** GET /_svc/sse is served as an alias of /_svc/subscribe. */
export const SSE_ALIAS_PATH = "/_svc/sse";
/** The full render of the current tree, for a client that must resync (a keep whose node is missing). */
export const RENDER_PATH = "/_svc/render";
/** Exchanges a rotated-away session id for the current one, for the tab holding the rotation ticket. */
export const ROTATE_PATH = "/_svc/rotate";
export const CLIENT_PATH = "/_svc/client.js";
/** A desktop app's one-time launch token, on the one request that fetches the window's page (docs/desktop.md#the-launch-token). */
export const LAUNCH_HEADER = "X-Svc-Launch";
/**
 * The page loads the client as `?_svc=client.js`, a query on its own URL, which reaches the app
 * wherever it is mounted (docs/protocol.md#mounting).
 */
export const CLIENT_QUERY_NAME = "_svc";
export const CLIENT_QUERY_VALUE = "client.js";
export const CLIENT_QUERY = `${CLIENT_QUERY_NAME}=${CLIENT_QUERY_VALUE}`;
/** The client script's query parameter naming the bundle's digest, which makes its URL cacheable for good. */
export const CLIENT_VERSION_PARAM = "v";
export const SESSION_HEADER = "X-Svc-Session"; // a token session's signed token, on every request and stream
export const META_SESSION_TOKEN = "svc-session-token"; // the meta tag that hands the first token to the client
export const END_PATH = "/_svc/end"; // POST: the client cleared its Session field
export const SPLIT_CLIENT_PATH = "/_svc/split.js";
/** The split client through a page's own URL: `?_svc=split.js` (docs/protocol.md#the-split-client). */
export const SPLIT_CLIENT_QUERY_VALUE = "split.js";
/**
 * Development's reload stream through a page's own URL: `?_svc=reload`, an event stream whose data
 * is the server process's boot id; a page that sees another id reloads (docs/live-apps.md#development).
 */
export const RELOAD_QUERY_VALUE = "reload";

/**
 * The app's base, from the page's location and its path within the app (META_PATH): the
 * location's path without that path at its end ("/live/a" and "/a" give "/live"; at the app's root
 * "/live/" and "/live" both give "/live"). `known` (META_BASE) when the location does not end so.
 */
export function baseOfPage(locationPath: string, appPath: string, known: string): string {
  if (appPath === "") return known;
  if (appPath === "/") return locationPath.endsWith("/") ? locationPath.slice(0, -1) : locationPath;
  return locationPath.endsWith(appPath) ? locationPath.slice(0, locationPath.length - appPath.length) : known;
}

export const CSRF_HEADER = "X-Svc-Csrf";
export const CSRF_COOKIE = "__svc_csrf";
/** Names the meaning of a refusal (one of the STATUS_* values below). */
export const STATUS_HEADER = "X-Svc-Status";
/** The session's current public id, when the request named one it rotated away from. */
export const SID_HEADER = "X-Svc-Sid";
/** The session seq of a full-HTML reply or a render (docs/protocol.md#full-html-reply). */
export const SEQ_HEADER = "X-Svc-Seq";
/** The input acks of a full-HTML reply, as compact JSON. */
export const ACK_HEADER = "X-Svc-Ack-Inputs";
/** Carries the one-time rotation ticket to the tab whose event rotated the session. */
export const ROTATION_HEADER = "X-Svc-Rotation";
/**
 * On a render asked for with `?since=<lastAppliedSeq>`: what the frames since then did to ids, as
 * JSON, so the client moves its ids to the render's before it reconciles (docs/protocol.md#ids-that-move).
 */
export const MOVES_HEADER = "X-Svc-Moves";
/** How long, in seconds, a client waits before retrying a gate-unavailable refusal. */
export const RETRY_AFTER_HEADER = "Retry-After";
/** Sent by EventSource when it reconnects: the `id:` of the last frame it received (docs/protocol.md#resume). */
export const LAST_EVENT_ID_HEADER = "Last-Event-ID";
/**
 * The stream URL's query parameter with which a client opening a new stream names its last applied
 * frame: the stream then resumes from it as from Last-Event-ID, which wins when the browser sends
 * it (docs/protocol.md#resume).
 */
export const STREAM_SINCE_PARAM = "since";

/** Values of X-Svc-Status (docs/protocol.md#errors-and-statuses). */
export const SESSION_LOST = "session-lost";
/** The event's own update ended the session (Live.endSession): the tab reloads, nothing failed. */
export const SESSION_ENDED = "session-ended";
export const SESSION_ROTATING = "session-rotating";
export const CSRF_FAILED = "csrf-failed";
export const APP_ERROR = "app-error";
export const GATE_UNAVAILABLE = "gate-unavailable";
/** The event's handler left the page (docs/protocol.md#ids-that-move); the client resyncs. */
export const HANDLER_GONE = "handler-gone";
/** A replica that is shutting down was asked about a session it does not hold: retry (another replica will). */
export const REPLICA_DRAINING = "draining";

/**
 * The HTTP status of each answer of the live endpoints (docs/protocol.md#errors-and-statuses).
 * The server writes these and the client reads them through `answerOf`, so neither side spells a
 * bare number.
 */
export const HTTP = {
  /** A frame (JSON) or a full-HTML reply. */
  ok: 200,
  /** A batch was processed; its frames go out over SSE. */
  batchDone: 204,
  /** A malformed body or an unknown message. */
  badRequest: 400,
  csrfFailed: 403,
  /**
   * The event was processed and its update ended the session (a sign-out): the tab reloads into a
   * fresh session. A success status, so a browser does not log the sign-out as a failed request.
   */
  sessionEnded: 205,
  /** No session cookie, an unknown session, or a body naming another session. */
  sessionLost: 404,
  /** The cookie names an id its session rotated away from, within the grace period. */
  sessionRotating: 409,
  /** The body is larger than LIMITS.maxBodyBytes. */
  tooLarge: 413,
  /** The element that sent the event is no longer in the page: nothing changed (docs/protocol.md#ids-that-move). */
  handlerGone: 410,
  /** The app's update or view threw: nothing changed. */
  appError: 500,
  /** The revocation gate could not read the access state: retry after Retry-After seconds. */
  gateUnavailable: 503,
} as const;

/** What a client does with an answer of the live endpoints, by meaning rather than by number. */
export type Answer =
  /** Apply the frame (or full HTML) in the body. */
  | "frame"
  /** Nothing to apply: the frames come over SSE. */
  | "done"
  /** The session is gone (or the server restarted): reload the page. */
  | "session-lost"
  /** This tab's own event ended the session: reload the page. */
  | "session-ended"
  /** Retry shortly, exchanging the rotation ticket if this tab holds one. */
  | "session-rotating"
  /** Retry after the server's Retry-After delay. */
  | "retry-later"
  /** The event's element left the page before the server saw the event: catch up with a resync. */
  | "handler-gone"
  /** The server refused this request (bad body, CSRF, size, app error): drop it. */
  | "refused";

/** The meaning of an HTTP status from the live endpoints (docs/protocol.md#errors-and-statuses). */
export function answerOf(status: number): Answer {
  return ANSWER_OF_STATUS.get(status) ?? (status >= 200 && status < 300 ? "frame" : "refused");
}

/** The statuses with an answer of their own; any other 2xx is a frame, anything else a refusal. */
const ANSWER_OF_STATUS: ReadonlyMap<number, Answer> = new Map([
  [HTTP.batchDone, "done"],
  [HTTP.sessionEnded, "session-ended"],
  [HTTP.sessionLost, "session-lost"],
  [HTTP.sessionRotating, "session-rotating"],
  [HTTP.gateUnavailable, "retry-later"],
  [HTTP.handlerGone, "handler-gone"],
]);

/** The delay a Retry-After header asks for, in ms; undefined when it is absent or not a positive number of seconds. */
export function retryAfterMs(headers: { get(name: string): string | null }): number | undefined {
  const seconds = Number(headers.get(RETRY_AFTER_HEADER));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

/** Page meta names the client reads at start (docs/protocol.md#page). */
export const META_CSRF = "svc-csrf";
export const META_SEQ = "svc-seq";
/** The base as the server knows it: exact unless another app mounted it with `app.mount`. */
export const META_BASE = "svc-base";
/** The page's path within the app ("/" at its root), from which the client finds the base. */
export const META_PATH = "svc-path";
/** The session's public handle, posted back as the advisory `sessionId`. */
export const META_SESSION = "svc-session";

/** The session cookie: svc_sid for the host app, svc_<name>_sid for a named sub-app (docs/protocol.md#sessions-and-cookies). */
export function sessionCookieName(appName: string | undefined): string {
  return appName === undefined || appName === "" ? "svc_sid" : `svc_${appName}_sid`;
}
/** A Secure session cookie carries the __Host- prefix; both spellings are read. */
export const HOST_PREFIX = "__Host-";

/** How long a rotated-away session id answers session-rotating before session-lost (docs/protocol.md#session-rotation). */
export const ROTATION_GRACE_MS = 60_000;

/** Size limits of an event request (docs/protocol.md#limits). */
export const LIMITS = {
  /** Largest event request body; larger is 413. */
  maxBodyBytes: 1024 * 1024,
  /** Most entries in `args`, `batch` and `inputState`. */
  maxArgs: 64,
  maxBatch: 256,
  maxInputs: 1024,
  /** Longest message name, handler id or input id. */
  maxNameLength: 512,
  /**
   * How deep the body may nest (the body object is level 1): deeper is a 400 before the body is
   * parsed, so neither the parser nor the app's update recurses through hostile depth.
   */
  maxDepth: 32,
  /** Longest string anywhere in args or an input's reported value (UTF-16 code units). */
  maxStringLength: 256 * 1024,
  /** Most entries of any array, or keys of any object, inside args (args itself: maxArgs). */
  maxArrayLength: 1024,
} as const;
