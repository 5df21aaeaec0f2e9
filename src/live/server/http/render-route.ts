/**
 * GET <base>/_svc/render (docs/protocol.md#client-rules): the current render as full HTML, for a
 * client that must resync, with what the frames since its `?since=<seq>` did to ids
 * (docs/protocol.md#ids-that-move) and the input acks it missed.
 */
import type { JsonObject } from "../../../json.ts";
import { ACK_HEADER, CSRF_HEADER, MOVES_HEADER, SEQ_HEADER, SID_HEADER } from "../../../protocol/mod.ts";
import { render } from "../../render.ts";
import type { RouteContext } from "./route-context.ts";
import { crossOrigin, csrfFailed, liveOr, LOOKUPS, refusalFor } from "./refusals.ts";
import { ELSEWHERE, orStoreFailed } from "../registry/lookup.ts";
import { checkToken, tellToken } from "./rotation.ts";
import type { TokenState } from "./csrf.ts";
import type { LiveSession } from "../session/session.ts";

/** The cookie's session's current render, or why it cannot be had. */
export async function serveRender<Model>(ctx: RouteContext<Model>, req: Request, auth: JsonObject | undefined): Promise<Response> {
  const cookies = req.headers.get("Cookie");
  const id = ctx.sessionIdOf(req);
  // A copy that moves to another replica while the render waits for its lock is not rendered: its
  // state may be behind the new owner's. The session is looked up again (docs/deployment.md#late-notices).
  for (let attempt = 0; attempt < LOOKUPS; attempt++) {
    // A copy here that another replica has taken on since is dropped first: the render is the session's latest.
    const session = liveOr(
      ctx,
      req,
      await orStoreFailed(async () => {
        await ctx.sessions.confirmHeld(id);
        return ctx.sessions.resolve(id);
      }),
    );
    if (session instanceof Response) return session;
    if (!ctx.originAllowed(req)) return crossOrigin();
    const tokenState = checkToken(ctx, session, cookies, req.headers.get(CSRF_HEADER) ?? undefined);
    if (tokenState === "wrong") return csrfFailed();
    const refused = await ctx.access.admit(session, auth);
    if (refused !== undefined) return refusalFor(ctx, req, refused);
    const reply = await session.mutex.run(() => session.isLive ? renderOf(ctx, session, req, tokenState) : undefined);
    if (reply === undefined) continue;
    return ctx.tokens === undefined ? reply : tellToken(ctx, session, req, reply);
  }
  return refusalFor(ctx, req, ELSEWHERE);
}

/** The render of a live session, under its lock. */
function renderOf<Model>(ctx: RouteContext<Model>, session: LiveSession<Model>, req: Request, tokenState: TokenState): Response {
  session.lastActive = ctx.now();
  const headers: Record<string, string> = {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    [SEQ_HEADER]: String(session.outSeq),
  };
  // A tab still holding the token of a rotated-away id learns the current one.
  if (tokenState === "former") {
    Object.assign(headers, { [SID_HEADER]: ctx.sessions.handleOf(session), [CSRF_HEADER]: ctx.csrf.tokenOf(req, session.id) });
  }
  const moves = movesHeader(session, new URL(req.url).searchParams.get("since"));
  if (moves !== undefined) headers[MOVES_HEADER] = moves;
  // The acks a tab catching up has missed: a value the render shows applies to an input only
  // once its keystrokes are acked, and the frames that carried those acks are skipped.
  if (session.inputSeqs.size > 0) headers[ACK_HEADER] = JSON.stringify(Object.fromEntries(session.inputSeqs));
  return new Response(render(session.currentTree()), { headers });
}

/** Largest X-Svc-Moves value sent; a longer one is left out and the client reconciles as before. */
const MAX_MOVES_BYTES = 16 * 1024;

/**
 * The X-Svc-Moves header of a render asked for with `?since=<seq>` (docs/protocol.md#ids-that-move):
 * what the frames since then did to ids, or undefined when unknown or too long for a header.
 */
function movesHeader(session: { movesSince(since: number): readonly unknown[] | undefined }, since: string | null): string | undefined {
  if (since === null || !/^\d{1,15}$/.test(since)) return undefined;
  const moves = session.movesSince(Number(since));
  if (moves === undefined) return undefined;
  const json = JSON.stringify(moves);
  return json.length <= MAX_MOVES_BYTES ? json : undefined;
}
