/**
 * GET <base>/_svc/subscribe (docs/protocol.md#sse-stream): the session's SSE stream. It resumes from
 * Last-Event-ID when the frames are still held, or starts with a full render (docs/protocol.md#resume).
 */
import type { JsonObject } from "../../../json.ts";
import { LAST_EVENT_ID_HEADER, LIMITS, STREAM_SINCE_PARAM } from "../../../protocol/mod.ts";
import { render } from "../../render.ts";
import type { RouteContext } from "./route-context.ts";
import { ELSEWHERE, isStoreFailed, orStoreFailed, type Refusal, type Resolved } from "../registry/lookup.ts";
import { liveOr, LOOKUPS, refusalFor } from "./refusals.ts";
import type { LiveSession } from "../session/session.ts";
import { openFrameStream } from "../streams/sse-stream.ts";

/** Opens the SSE stream of the cookie's session, or answers why it cannot. */
export async function serveStream<Model>(ctx: RouteContext<Model>, req: Request, auth: JsonObject | undefined): Promise<Response> {
  const id = ctx.sessionIdOf(req);
  const lastFrame = lastFrameOf(req);
  // A copy that stops while the stream waits for its lock (taken over, or drained) is not joined:
  // the stream would get no frame from it, and a drain that closed the copy's streams already
  // would leave this one open. The session is looked up again: held elsewhere, the stream listens
  // for the owner's frames; on a draining replica it is refused, and the client reconnects elsewhere.
  for (let attempt = 0; attempt < LOOKUPS; attempt++) {
    // A stream of a session another replica holds listens here; its frames come over the bus. A
    // stream that resumes from a frame other than the owner's last (Last-Event-ID, or the page's
    // `since`) makes this replica take the session over, to send the frames or the render it missed
    // (docs/protocol.md#resume); one that is up to date does not move the session.
    // A copy here that another replica has taken on since is dropped first (docs/deployment.md#late-notices):
    // the stream then listens for that replica's frames rather than joining a copy no one saves.
    const confirmed = await orStoreFailed(() => ctx.sessions.confirmHeld(id));
    if (isStoreFailed(confirmed)) return refusalFor(ctx, req, confirmed);
    const remote = ctx.replication()?.streamHere(id, lastFrame, ctx.heartbeatMs);
    const resolved = await orStoreFailed(() => remote ?? (ctx.sessions.resolve(id) as Resolved<unknown> | Promise<Resolved<unknown>>));
    if (resolved.kind === "listening") return streamReply(resolved.body);
    const session = liveOr(ctx, req, resolved as Resolved<Model> | Refusal);
    if (session instanceof Response) return session;
    const refused = await ctx.access.admit(session, auth);
    if (refused !== undefined) return refusalFor(ctx, req, refused);
    ctx.sessions.connected(session);
    // Under the mutex, so that no frame is stamped between the catch-up and the stream joining.
    const body = await session.mutex.run(() => session.isLive ? joinStream(ctx, session, req, lastFrame) : undefined);
    if (body !== undefined) return streamReply(body);
  }
  return refusalFor(ctx, req, ELSEWHERE);
}

/** An SSE stream's reply, whichever replica holds its session. */
function streamReply(body: ReadableStream<Uint8Array>): Response {
  return new Response(body, { headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no" } });
}

/** A new stream of a live session, under its lock: what it missed first, then every frame. */
function joinStream<Model>(ctx: RouteContext<Model>, session: LiveSession<Model>, req: Request, lastFrame: string | null): ReadableStream {
  const { sink, body, write } = openFrameStream({
    heartbeatMs: ctx.heartbeatMs,
    onHeartbeat: () => (session.lastActive = ctx.now()),
    onClose: (closed) => session.frames.closed(closed),
  });
  const renderRoot = () => render(session.currentTree());
  write(session.frames.catchUp(lastFrame, session.outSeq, renderRoot, session.renderIds));
  session.frames.open(sink, pageOf(req.url));
  return body;
}

/**
 * The last frame the client has: the browser's Last-Event-ID when it reconnects by itself, else
 * the `since` a client names when it opens a stream (its page's render, or the frames it applied
 * since), so the frames stamped before the stream opened are sent on it (docs/protocol.md#resume).
 */
function lastFrameOf(req: Request): string | null {
  const header = req.headers.get(LAST_EVENT_ID_HEADER);
  return header !== null && header !== "" ? header : new URL(req.url).searchParams.get(STREAM_SINCE_PARAM);
}

/** The `page` a stream's URL names (`?page=<id>`, the client's id of its page load), if any and well formed. */
function pageOf(url: string): string | undefined {
  const page = new URL(url).searchParams.get("page");
  return page !== null && page.length > 0 && page.length <= LIMITS.maxNameLength ? page : undefined;
}
