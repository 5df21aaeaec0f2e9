/**
 * POST /_svc/event (live-input-authority.md §Endpoints, §Authentication, §Errors).
 *
 * Checks run in an order that never reveals more than the caller already holds: the cookie's
 * session first (lost: the one constant 404), then the body size and shape (413, 400), the CSRF
 * token (403; the header, or for a beacon batch the body's csrf field), the advisory sessionId
 * (another session's: the same 404), and only then the session's mutex and the six steps.
 */
import type { JsonObject } from "../../json.ts";
import { log } from "../../log.ts";
import { type EventBody, parseEventBody, readBodyLimited } from "./body.ts";
import { csrfMatches } from "./cookies.ts";
import { fullHtmlOf } from "./frames.ts";
import type { SessionRegistry } from "./registry.ts";
import { appError, badRequest, csrfFailed, frameReply, handlerGone, sessionLost, sessionRotating } from "./responses.ts";
import type { LiveSession } from "./session.ts";
import { CSRF_HEADER, LIMITS, SID_HEADER } from "../../protocol/mod.ts";

export type EventRouteContext<Model> = {
  readonly registry: SessionRegistry<Model>;
  readonly now: () => number;
  /** Resolves the request's session id from its cookie. */
  readonly sessionIdOf: (req: Request) => string | undefined;
  /**
   * The revocation gate and other checks before any processing; a Response refuses the request.
   * `auth`: the verified sliding token's claims, when the app has one.
   */
  readonly admit: (session: LiveSession<Model>, req: Request, auth: JsonObject | undefined) => Response | undefined | Promise<Response | undefined>;
  /** Adds what the processing changed about the session to the reply (rotation, end). */
  readonly finish: (session: LiveSession<Model>, req: Request, resp: Response) => Response;
};

export async function handleEvent<Model>(req: Request, ctx: EventRouteContext<Model>, auth: JsonObject | undefined): Promise<Response> {
  const resolved = ctx.registry.resolve(ctx.sessionIdOf(req));
  if (resolved.kind === "lost") return sessionLost();
  if (resolved.kind === "rotating") return sessionRotating();
  const session = resolved.session;

  const headerToken = req.headers.get(CSRF_HEADER) ?? undefined;
  if (headerToken !== undefined && !csrfMatches(req, headerToken)) return csrfFailed();

  const text = await readBodyLimited(req, LIMITS.maxBodyBytes);
  if (text === undefined) return badRequest("payload_too_large", `the body is larger than ${LIMITS.maxBodyBytes} bytes`, 413);
  const parsed = parseEventBody(text);
  if (!parsed.ok) return badRequest(parsed.error.code === "limit_exceeded" ? "limit_exceeded" : "bad_event", parsed.error.message);
  const body = parsed.value;
  // A beacon cannot set headers: only an unload batch may carry its token in the body (§Client rules 9).
  if (headerToken === undefined && !(body.isBatch && csrfMatches(req, body.csrf))) return csrfFailed();

  let renamed = false;
  if (body.sessionId !== undefined && body.sessionId !== ctx.registry.handleOf(session)) {
    if (!ctx.registry.rotatedHandle(session, body.sessionId)) return sessionLost();
    renamed = true;
  }

  const admitted = ctx.admit(session, req, auth);
  const refused = admitted instanceof Promise ? await admitted : admitted;
  if (refused !== undefined) return refused;

  const reply = await session.mutex.run(() => process(session, body, ctx.now()));
  const withSid = renamed ? withHeader(reply, SID_HEADER, ctx.registry.handleOf(session)) : reply;
  return ctx.finish(session, req, withSid);
}

function process<Model>(session: LiveSession<Model>, body: EventBody, now: number): Response {
  if (session.ended) return sessionLost();
  session.lastActive = now;
  if (body.isBatch) {
    // §Endpoints, batch: one after another, each as if alone; frames still go out over SSE.
    // The reported inputs go with the first entry processed (a re-sent one may be skipped).
    let inputs = body.inputState;
    body.entries.forEach((entry, i) => {
      const outcome = session.step(entry, inputs, false, body.page, body.lastAppliedSeq);
      if (outcome.kind === "duplicate") return;
      inputs = new Map();
      if (outcome.kind !== "frame") log.warn(`live.batch entry ${i} (${entry.msg}) not processed: ${outcome.kind}`);
    });
    return new Response(null, { status: 204 });
  }
  const [entry] = body.entries;
  const outcome = session.step(entry!, body.inputState, true, body.page, body.lastAppliedSeq);
  switch (outcome.kind) {
    case "frame":
      // Live.endSession ran: the tab reloads into a fresh, signed-out session.
      if (session.ended) return sessionLost();
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
      // Already processed from this page's navigation batch: its frame went out then.
      return new Response(null, { status: 204 });
  }
}

function withHeader(resp: Response, name: string, value: string): Response {
  resp.headers.set(name, value);
  return resp;
}
