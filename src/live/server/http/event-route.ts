/**
 * POST /_svc/event (docs/protocol.md#event-request, #sessions-and-cookies, #errors-and-statuses).
 *
 * Checks run in an order that never reveals more than the caller already holds: the cookie's
 * session first (lost: the one constant 404), the request's origin (403, docs/security.md#origin),
 * then the body size and shape (413, 400), the advisory sessionId (another session's: the same
 * 404), the CSRF token bound to the session (403; the header, or for a beacon batch the body's
 * csrf field; docs/security.md#csrf), and only then the session's mutex and its step
 * (docs/architecture.md walks these as steps 3 to 10).
 */
import type { JsonObject } from "../../../json.ts";
import { log } from "../../../log.ts";
import { type EventBody, parseEventBody, readBodyLimited } from "./body.ts";
import type { RouteContext } from "./route-context.ts";
import { checkToken, finishReply } from "./rotation.ts";
import { sessionIdIn } from "../access/session-cookies.ts";
import { fullHtmlOf } from "../streams/sse-wire.ts";
import { appError, badRequest, crossOrigin, csrfFailed, frameReply, handlerGone, liveOr, refusalFor, sessionEnded } from "./refusals.ts";
// The shared store failed: the change was not saved, so nothing of it was kept or sent (503, retry).
import { ELSEWHERE, LOST, STORE_FAILED, storeFailed } from "../registry/lookup.ts";
import type { LiveSession } from "../session/session.ts";
import type { EventOutcome } from "../session/outcome.ts";
import { CSRF_HEADER, HTTP, LIMITS, SEQ_HEADER, SID_HEADER } from "../../../protocol/mod.ts";

/**
 * An event request. `hold`: the end of the turn the event waits for when the server is busy
 * (src/live/server/http/turn-batch.ts); the request is not looked at before it.
 */
export async function handleEvent<Model>(
  ctx: RouteContext<Model>,
  req: Request,
  auth: JsonObject | undefined,
  hold?: Promise<void>,
): Promise<Response> {
  if (hold !== undefined) await hold;
  // Read once: the session cookie and the CSRF cookie are both in it.
  const cookies = req.headers.get("Cookie");
  // A token app's session is its X-Svc-Session token's (docs/protocol.md#token-sessions).
  const id = ctx.tokens === undefined ? sessionIdIn(cookies, ctx.cookieName) : ctx.sessionIdOf(req);
  // Lazy: a session held elsewhere is read, and the save of this event's change claims it (one write per move).
  const found = ctx.sessions.resolveForEvent(id);
  const resolved = liveOr(ctx, req, found instanceof Promise ? await found.catch(storeFailed) : found);
  if (resolved instanceof Response) return resolved;
  let session = resolved;

  if (!ctx.originAllowed(req)) return crossOrigin();
  const headerToken = req.headers.get(CSRF_HEADER) ?? undefined;
  const body = parsedEvent(await readBodyLimited(req, LIMITS.maxBodyBytes));
  if (body instanceof Response) return body;
  // A beacon cannot set headers: only an unload batch may carry its token in the body (docs/protocol.md#csrf).
  const renamed = checkNames(ctx, req, session, { cookies, body, token: headerToken ?? (body.isBatch ? body.csrf : undefined) });
  if (renamed instanceof Response) return renamed;
  ctx.sessions.connected(session);

  const admitted = ctx.access.admit(session, auth);
  const refused = admitted instanceof Promise ? await admitted : admitted;
  if (refused !== undefined) return refusalFor(ctx, req, refused);

  let ran = runLocked(session, body, ctx.now());
  if (ran instanceof Promise) ran = await ran;
  if (isMoved(ran)) {
    const again = await runWhereItMoved(ctx, req, { id, body, ran });
    if (again instanceof Response) return again;
    ({ session, ran } = again);
  }
  if (ran.kind === "store_failed" || ran.kind === "moved") return replyFor(ctx, req, ran);
  // A rotation or an end made while processing is in the store before the reply names it.
  // A rotation whose move the store refused (twice) is not answered with the new id: 503, retry.
  const writes = ctx.sessions.settled(session);
  if (writes !== undefined && !(await writes.then(() => true, () => false))) return refusalFor(ctx, req, STORE_FAILED);
  const reply = replyFor(ctx, req, ran);
  return finishReply(ctx, session, req, renamed ? tellRenamed(reply, ctx, session, req) : reply);
}

/** The request's body, read within the size limit (undefined when larger: 413), parsed as an event (400 when it is not one). */
function parsedEvent(text: string | undefined): EventBody | Response {
  if (text === undefined) return badRequest("payload_too_large", `the body is larger than ${LIMITS.maxBodyBytes} bytes`, HTTP.tooLarge);
  const parsed = parseEventBody(text);
  if (!parsed.ok) return badRequest(parsed.error.code === "limit_exceeded" ? "limit_exceeded" : "bad_event", parsed.error.message);
  return parsed.value;
}

/**
 * The names the tab sent, checked: the advisory sessionId (another session's: the lost 404), then
 * the CSRF token (403). True when the tab used an old handle or token within the rotation's grace
 * period, and must be told the current ones.
 */
function checkNames<Model>(
  ctx: RouteContext<Model>,
  req: Request,
  session: LiveSession<Model>,
  sent: { readonly cookies: string | null; readonly body: EventBody; readonly token: string | undefined },
): boolean | Response {
  const tokenState = checkToken(ctx, session, sent.cookies, sent.token);
  let renamed = tokenState === "former";
  const { sessionId } = sent.body;
  if (sessionId !== undefined && sessionId !== ctx.sessions.handleOf(session)) {
    // A tab that slept past a rotation's grace period holds a dead handle and token: it reloads.
    if (!ctx.sessions.rotatedHandle(session, sessionId)) return refusalFor(ctx, req, LOST);
    renamed = true;
  }
  if (tokenState === "wrong") return csrfFailed();
  return renamed;
}

/**
 * The copy here was stale (another replica had taken the session): nothing of it was kept. Taken
 * over afresh, from the state that replica saved, the event is processed once more (twice at most).
 */
async function runWhereItMoved<Model>(
  ctx: RouteContext<Model>,
  req: Request,
  moved: { readonly id: string | undefined; readonly body: EventBody; readonly ran: Ran },
): Promise<{ session: LiveSession<Model>; ran: Ran } | Response> {
  const { id, body } = moved;
  let ran = moved.ran;
  let session: LiveSession<Model> | undefined;
  for (let attempt = 0; isMoved(ran) && attempt < 2; attempt++) {
    const again = liveOr(ctx, req, await Promise.resolve(ctx.sessions.resolveForEvent(id)).catch(storeFailed));
    if (again instanceof Response) return again;
    session = again;
    ran = await runLocked(session, body, ctx.now());
  }
  return { session: session!, ran };
}

/** An entry whose frame is the request's reply, and one of a batch (its frame goes out over SSE). */
const AS_REPLY = { reply: true } as const;
const IN_BATCH = { reply: false } as const;

/** The end of a batch whose entries were processed (their frames went out over SSE). */
const BATCH_DONE = { kind: "batch_done" } as const;

/** What running an event request under the session's lock gave: the session's outcome, a batch's end, or the store failing. */
type Ran = EventOutcome | typeof BATCH_DONE | typeof STORE_FAILED;

function isMoved(ran: Ran): boolean {
  return ran.kind === "moved";
}

/**
 * The request's entries applied under the session's lock, or STORE_FAILED when the store failed.
 * An event on a free lock whose processing is synchronous (no shared store to wait for) is
 * answered without a promise.
 */
function runLocked<Model>(session: LiveSession<Model>, body: EventBody, now: number): Ran | Promise<Ran> {
  let ran: Ran | Promise<Ran>;
  try {
    ran = session.mutex.runNow(() => applyEntries(session, body, now));
  } catch (error) {
    return storeFailed(error);
  }
  return ran instanceof Promise ? ran.catch(storeFailed) : ran;
}

function applyEntries<Model>(session: LiveSession<Model>, body: EventBody, now: number): Ran | Promise<Ran> {
  session.lastActive = now;
  if (body.isBatch) return applyBatch(session, body);
  return session.step({ entry: body.entries[0]!, inputs: body.inputState, page: body.page, lastAppliedSeq: body.lastAppliedSeq }, AS_REPLY);
}

/** docs/protocol.md#batches: one after another, each as if alone; frames still go out over SSE. */
async function applyBatch<Model>(session: LiveSession<Model>, body: EventBody): Promise<Ran> {
  // The reported inputs go with the first entry processed (a re-sent one may be skipped).
  let inputs = body.inputState;
  for (const [i, entry] of body.entries.entries()) {
    const stepped = session.step({ entry, inputs, page: body.page, lastAppliedSeq: body.lastAppliedSeq }, IN_BATCH);
    const outcome = stepped instanceof Promise ? await stepped : stepped;
    // A session that had ended (or moved) before the batch answers it as it would one event.
    if (i === 0 && outcome.kind === "ended") return outcome;
    if (outcome.kind === "duplicate") continue;
    // Entries before this one are kept; the rest are the next holder's to process (a re-sent
    // batch skips the kept ones by their seqs).
    if (outcome.kind === "moved") return outcome;
    inputs = new Map();
    if (outcome.kind !== "frame") log.warn(`live.batch entry ${i} (${entry.msg}) not processed: ${outcome.kind}`);
  }
  return BATCH_DONE;
}

/** The reply to what running the request gave (docs/protocol.md#event-reply, #errors-and-statuses). */
function replyFor<Model>(ctx: RouteContext<Model>, req: Request, ran: Ran): Response {
  switch (ran.kind) {
    case "store_failed":
      return refusalFor(ctx, req, ran);
    case "frame":
      // Live.endSession ran: the tab reloads into a fresh, signed-out session.
      return ran.endsSession ? sessionEnded() : frameReply(ran.frame, fullHtmlOf(ran.frame.patches));
    case "batch_done":
      return new Response(null, { status: HTTP.batchDone });
    case "unknown_message":
      return badRequest("unknown_message", "no handler in the current render sends this message");
    case "handler_gone":
      return handlerGone();
    case "app_error":
      return appError({ logId: ran.logId, notice: ctx.failureNotice({ logId: ran.logId, request: req }), report: ran.report });
    case "ended":
      return refusalFor(ctx, req, LOST);
    case "duplicate":
      // Already processed (from this page's navigation batch, or a copy whose reply was lost): its
      // frame went out then. The seq tells the tab how far the session is, so a tab that never got
      // that frame waits for it and resyncs when it does not come (docs/protocol.md#errors-and-statuses).
      return new Response(null, { status: HTTP.batchDone, headers: { [SEQ_HEADER]: String(ran.outSeq) } });
    case "moved":
      return refusalFor(ctx, req, ELSEWHERE);
  }
}

/** A tab that still used the session's old handle or token is told the current ones. */
function tellRenamed<Model>(resp: Response, ctx: RouteContext<Model>, session: LiveSession<Model>, req: Request): Response {
  resp.headers.set(SID_HEADER, ctx.sessions.handleOf(session));
  const token = ctx.csrf.tokenOf(req, session.id);
  if (token !== undefined) resp.headers.set(CSRF_HEADER, token);
  return resp;
}
