/**
 * POST /_svc/event (docs/protocol.md#event-request, #sessions-and-cookies, #errors-and-statuses).
 *
 * Checks run in an order that never reveals more than the caller already holds: the cookie's
 * session first (lost: the one constant 404), the request's origin (403, docs/security.md#origin),
 * then the body size and shape (413, 400), the CSRF token bound to the session (403; the header,
 * or for a beacon batch the body's csrf field; docs/security.md#csrf), the advisory sessionId
 * (another session's: the same 404), and only then the session's mutex and the six steps.
 */
import type { JsonObject } from "../../../json.ts";
import { log } from "../../../log.ts";
import { type EventBody, parseEventBody, readBodyLimited } from "./body.ts";
import type { TokenState } from "./csrf.ts";
import { fullHtmlOf } from "../streams/sse-wire.ts";
import type { SessionRegistry } from "../registry/registry.ts";
import {
  appError,
  badRequest,
  crossOrigin,
  csrfFailed,
  frameReply,
  handlerGone,
  replicaDraining,
  sessionEnded,
  sessionLost,
  sessionRotating,
  // The shared store failed: the change was not saved, so nothing of it was kept or sent (503, retry).
  STORE_FAILED,
  storeFailed,
  storeUnavailable,
} from "./refusals.ts";
import type { LiveSession, StepOutcome } from "../session/session.ts";
import { CSRF_HEADER, HTTP, LIMITS, SEQ_HEADER, SID_HEADER } from "../../../protocol/mod.ts";

export type EventRouteContext<Model> = {
  readonly registry: SessionRegistry<Model>;
  readonly now: () => number;
  /** Resolves the request's session id from its Cookie header. */
  readonly sessionIdOf: (cookies: string | null) => string | undefined;
  /**
   * The revocation gate and other checks before any processing; a Response refuses the request.
   * `auth`: the verified sliding token's claims, when the app has one.
   */
  readonly admit: (
    session: LiveSession<Model>,
    req: Request,
    auth: JsonObject | undefined,
  ) => Response | undefined | Promise<Response | undefined>;
  /** Whether the request comes from the app's own origin (src/live/server/http/origin.ts). */
  readonly originAllowed: (req: Request) => boolean;
  /**
   * Checks a CSRF token against the session: "current" for the token of its id, "former" for
   * that of an id it rotated away from within the grace period (another tab, not told yet).
   */
  readonly checkToken: (session: LiveSession<Model>, cookies: string | null, token: string | undefined) => TokenState;
  /** The session's current CSRF token for this request's cookie, for a reply that renames it. */
  readonly tokenOf: (session: LiveSession<Model>, req: Request) => string | undefined;
  /** Adds what the processing changed about the session to the reply (rotation, end). */
  readonly finish: (session: LiveSession<Model>, req: Request, resp: Response) => Response;
};

/**
 * An event request. `hold`: the end of the turn the event waits for when the server is busy
 * (src/live/server/http/turn-batch.ts); the request is not looked at before it.
 */
export async function handleEvent<Model>(
  req: Request,
  ctx: EventRouteContext<Model>,
  auth: JsonObject | undefined,
  hold?: Promise<void>,
): Promise<Response> {
  if (hold !== undefined) await hold;
  // Read once: the session cookie and the CSRF cookie are both in it.
  const cookies = req.headers.get("Cookie");
  const id = ctx.sessionIdOf(cookies);
  // Lazy: a session held elsewhere is read, and the save of this event's change claims it (one write per move).
  const found = ctx.registry.resolve(id, true);
  const resolved = found instanceof Promise ? await found.catch(storeFailed) : found;
  if (resolved === STORE_FAILED) return storeUnavailable();
  if (resolved.kind === "lost") return sessionLost();
  if (resolved.kind === "rotating") return sessionRotating();
  if (resolved.kind === "elsewhere") return replicaDraining();
  let session = resolved.session;

  if (!ctx.originAllowed(req)) return crossOrigin();
  const headerToken = req.headers.get(CSRF_HEADER) ?? undefined;

  const text = await readBodyLimited(req, LIMITS.maxBodyBytes);
  if (text === undefined) return badRequest("payload_too_large", `the body is larger than ${LIMITS.maxBodyBytes} bytes`, HTTP.tooLarge);
  const parsed = parseEventBody(text);
  if (!parsed.ok) return badRequest(parsed.error.code === "limit_exceeded" ? "limit_exceeded" : "bad_event", parsed.error.message);
  const body = parsed.value;
  // A beacon cannot set headers: only an unload batch may carry its token in the body (docs/protocol.md#csrf).
  const token = headerToken ?? (body.isBatch ? body.csrf : undefined);
  const tokenState = ctx.checkToken(session, cookies, token);

  let renamed = tokenState === "former";
  if (body.sessionId !== undefined && body.sessionId !== ctx.registry.handleOf(session)) {
    // A tab that slept past a rotation's grace period holds a dead handle and token: it reloads.
    if (!ctx.registry.rotatedHandle(session, body.sessionId)) return sessionLost();
    renamed = true;
  }
  if (tokenState === "wrong") return csrfFailed();
  ctx.registry.connected(session);

  const admitted = ctx.admit(session, req, auth);
  const refused = admitted instanceof Promise ? await admitted : admitted;
  if (refused !== undefined) return refused;

  const first = processed(session, body, ctx.now());
  let reply = first instanceof Promise ? await first : first;
  // The copy here was stale (another replica had taken the session): nothing of it was kept.
  // Taken over afresh, from the state that replica saved, the event is processed once more.
  for (let attempt = 0; reply === MOVED && attempt < 2; attempt++) {
    const again = await Promise.resolve(ctx.registry.resolve(id, true)).catch(storeFailed);
    if (again === STORE_FAILED) return storeUnavailable();
    if (again.kind !== "live") return again.kind === "elsewhere" ? replicaDraining() : sessionLost();
    session = again.session;
    const current = session;
    reply = await processed(current, body, ctx.now());
  }
  if (reply === MOVED) return replicaDraining();
  if (reply === STORE_FAILED) return storeUnavailable();
  // A rotation or an end made while processing is in the store before the reply names it.
  // A rotation whose move the store refused (twice) is not answered with the new id: 503, retry.
  const writes = ctx.registry.settled(session);
  if (writes !== undefined && !(await writes.then(() => true, () => false))) return storeUnavailable();
  return ctx.finish(session, req, renamed ? tellRenamed(reply, ctx, session, req) : reply);
}

/** The answer of `process` when the session moved to another replica before its change was kept. */
const MOVED = Symbol("moved");
type Processed = Response | typeof MOVED;

/**
 * The event processed under the session's mutex, or STORE_FAILED when the store failed. An event
 * on a free mutex whose processing is synchronous (no shared store to wait for) is answered
 * without a promise.
 */
function processed<Model>(
  session: LiveSession<Model>,
  body: EventBody,
  now: number,
): Processed | typeof STORE_FAILED | Promise<Processed | typeof STORE_FAILED> {
  let reply: Processed | Promise<Processed>;
  try {
    reply = session.mutex.runNow(() => process(session, body, now));
  } catch (error) {
    return storeFailed(error);
  }
  return reply instanceof Promise ? reply.catch(storeFailed) : reply;
}

function process<Model>(session: LiveSession<Model>, body: EventBody, now: number): Processed | Promise<Processed> {
  if (session.ended) return session.movedAway ? MOVED : sessionLost();
  session.lastActive = now;
  if (body.isBatch) return processBatch(session, body);
  const [entry] = body.entries;
  const outcome = session.step(entry!, body.inputState, true, body.page, body.lastAppliedSeq);
  return outcome instanceof Promise ? outcome.then((known) => replyTo(session, known)) : replyTo(session, outcome);
}

/** docs/protocol.md#batches: one after another, each as if alone; frames still go out over SSE. */
async function processBatch<Model>(session: LiveSession<Model>, body: EventBody): Promise<Processed> {
  // The reported inputs go with the first entry processed (a re-sent one may be skipped).
  let inputs = body.inputState;
  for (const [i, entry] of body.entries.entries()) {
    const stepped = session.step(entry, inputs, false, body.page, body.lastAppliedSeq);
    const outcome = stepped instanceof Promise ? await stepped : stepped;
    if (outcome.kind === "duplicate") continue;
    // Entries before this one are kept; the rest are the next holder's to process (a re-sent
    // batch skips the kept ones by their seqs).
    if (outcome.kind === "moved") return MOVED;
    inputs = new Map();
    if (outcome.kind !== "frame") log.warn(`live.batch entry ${i} (${entry.msg}) not processed: ${outcome.kind}`);
  }
  return new Response(null, { status: HTTP.batchDone });
}

function replyTo<Model>(session: LiveSession<Model>, outcome: StepOutcome): Processed {
  switch (outcome.kind) {
    case "frame":
      // Live.endSession ran: the tab reloads into a fresh, signed-out session.
      if (session.ended) return sessionEnded();
      return frameReply(outcome.frame, fullHtmlOf(outcome.frame.patches));
    case "unknown_message":
      return badRequest("unknown_message", "no handler in the current render sends this message");
    case "handler_gone":
      return handlerGone();
    case "app_error":
      return appError();
    case "ended":
      return sessionLost();
    case "duplicate":
      // Already processed (from this page's navigation batch, or a copy whose reply was lost): its
      // frame went out then. The seq tells the tab how far the session is, so a tab that never got
      // that frame waits for it and resyncs when it does not come (docs/protocol.md#errors-and-statuses).
      return new Response(null, { status: HTTP.batchDone, headers: { [SEQ_HEADER]: String(session.outSeq) } });
    case "moved":
      return MOVED;
  }
}

/** A tab that still used the session's old handle or token is told the current ones. */
function tellRenamed<Model>(resp: Response, ctx: EventRouteContext<Model>, session: LiveSession<Model>, req: Request): Response {
  resp.headers.set(SID_HEADER, ctx.registry.handleOf(session));
  const token = ctx.tokenOf(session, req);
  if (token !== undefined) resp.headers.set(CSRF_HEADER, token);
  return resp;
}
