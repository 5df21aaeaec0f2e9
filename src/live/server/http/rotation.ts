/**
 * Session ids that rotate (docs/protocol.md#session-rotation): POST <base>/_svc/rotate, where the
 * tab holding a rotation's ticket exchanges its old cookie for the new one; a CSRF token checked
 * against the session's current id and those it rotated away from; and an event's reply, which
 * hands a rotation to the tab that caused it or clears an ended session's cookie (never a moved one's).
 */
import { CSRF_HEADER, ROTATION_HEADER, SID_HEADER } from "../../../protocol/mod.ts";
import type { RouteContext } from "./route-context.ts";
import { readSessionId, setSessionCookie } from "../access/session-cookies.ts";
import type { TokenState } from "./csrf.ts";
import { crossOrigin, csrfFailed, refusalFor } from "./refusals.ts";
import { isStoreFailed, LOST, orStoreFailed } from "../registry/lookup.ts";
import type { LiveSession } from "../session/session.ts";

/** POST <base>/_svc/rotate: the old id's cookie and token, and the ticket, for the session's new id. */
export async function exchangeRotation<Model>(ctx: RouteContext<Model>, req: Request): Promise<Response> {
  // A token session's rotation reaches its one client in the reply's X-Svc-Session: nothing to exchange.
  if (ctx.tokens !== undefined) return refusalFor(ctx, req, LOST);
  if (!ctx.originAllowed(req)) return crossOrigin();
  // The tab exchanging its ticket still holds the old id's cookie and token.
  const oldId = readSessionId(req, ctx.cookieName);
  if (oldId === undefined || !ctx.csrf.matches(req, req.headers.get(CSRF_HEADER) ?? undefined, oldId)) return csrfFailed();
  // A rotation another replica made is read from the shared store (docs/deployment.md#rotation-on-any-replica).
  const session = await orStoreFailed(() => ctx.sessions.exchange(oldId, req.headers.get(ROTATION_HEADER) ?? undefined));
  if (isStoreFailed(session)) return refusalFor(ctx, req, session);
  if (session === undefined) return refusalFor(ctx, req, LOST);
  const resp = new Response(null, {
    status: 204,
    headers: { [SID_HEADER]: ctx.sessions.handleOf(session), [CSRF_HEADER]: ctx.csrf.tokenOf(req, session.id) ?? "" },
  });
  return setSessionCookie(resp, ctx.cookieName, session.id, ctx.secure(req));
}

/**
 * A token checked against the session's current id, then the ids it rotated away from within the
 * grace period. `cookies`: the request's Cookie header.
 */
export function checkToken<Model>(
  ctx: RouteContext<Model>,
  session: LiveSession<Model>,
  cookies: string | null,
  token: string | undefined,
): TokenState {
  // A token session was found by the X-Svc-Session header, which no form can send: that is the
  // defence (docs/protocol.md#token-sessions).
  if (ctx.tokens !== undefined) return "current";
  return ctx.csrf.check(cookies, token, { id: session.id, rotatedIds: () => ctx.sessions.rotatedIds(session), session });
}

/**
 * After an event: hand a rotation to the tab that caused it, or clear the cookies of an ended
 * session. Only a session that really ended (sign-out, `/_svc/end`, a revoke or disable) signs
 * the tab out; a copy that moved to another replica while answering leaves the cookies alone
 * (src/live/server/session/session.ts, SessionLife).
 */
export function finishReply<Model>(ctx: RouteContext<Model>, session: LiveSession<Model>, req: Request, resp: Response): Response {
  const rotation = ctx.sessions.takeRotation(session);
  switch (session.life) {
    case "ended":
      return ctx.access.signedOut(resp, req);
    case "moved":
      // The session carries on at another replica under the id the tab holds. A rotation made
      // here just before the move is not handed out: the store's move to the new id belonged to
      // the copy here, which no longer holds the session, so only the old id is known elsewhere.
      return ctx.tokens === undefined ? resp : tellToken(ctx, session, req, resp);
    case "live":
      break;
  }
  if (ctx.tokens !== undefined) {
    return rotation === undefined ? tellToken(ctx, session, req, resp) : tellRotatedToken(ctx, session, resp);
  }
  if (rotation === undefined) return resp;
  if (rotation.ticket !== undefined) resp.headers.set(ROTATION_HEADER, rotation.ticket);
  resp.headers.set(SID_HEADER, ctx.sessions.handleOf(session));
  const token = ctx.csrf.tokenOf(req, session.id);
  if (token !== undefined) resp.headers.set(CSRF_HEADER, token);
  return setSessionCookie(resp, ctx.cookieName, session.id, ctx.secure(req));
}

/**
 * A token session's reply to a request that rotated nothing (docs/protocol.md#token-sessions): the
 * token of the same id when the one the request sent is past half its lifetime. The client
 * replaces its Session field with it.
 */
export function tellToken<Model>(ctx: RouteContext<Model>, session: LiveSession<Model>, req: Request, resp: Response): Response {
  return ctx.tokens!.isStale(req) ? ctx.tokens!.tell(resp, session.id) : resp;
}

/** A token session's reply after a rotation: the token of the new id and the new handle. */
function tellRotatedToken<Model>(ctx: RouteContext<Model>, session: LiveSession<Model>, resp: Response): Response {
  resp.headers.set(SID_HEADER, ctx.sessions.handleOf(session));
  return ctx.tokens!.tell(resp, session.id);
}
