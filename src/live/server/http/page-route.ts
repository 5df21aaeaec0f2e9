/**
 * GET <base>/* (docs/protocol.md#page): the page. The cookie's session if it may go on, else a new
 * one bound as the access policy says; then its first render as full HTML, with the session and
 * CSRF cookies.
 */
import type { JsonObject } from "../../../json.ts";
import { render } from "../../render.ts";
import type { LiveAppParts } from "../app/route-context.ts";
import { readSessionId, setSessionCookie } from "./session-cookies.ts";
import { splitUpdate } from "../session/definition.ts";
import { pathWithin } from "../app/mounting.ts";
import { pageHtml } from "./page.ts";
import { randomToken } from "../registry/registry.ts";
import { orStoreFailed, replicaDraining, sessionsFull, STORE_FAILED, storeUnavailable } from "./refusals.ts";
import { LiveSession } from "../session/session.ts";
import { initialState } from "../session/state.ts";

/**
 * A page load (docs/protocol.md#page): the cookie's session if it may go on, else a new one;
 * then its first render as full HTML, with the session and CSRF cookies.
 */
export async function servePage<Model>(
  parts: LiveAppParts<Model>,
  req: Request,
  auth: JsonObject | undefined,
  base: string,
): Promise<Response> {
  const kept = await orStoreFailed(() => keptSessionFor(parts, req, auth));
  if (kept === STORE_FAILED) return storeUnavailable();
  if (kept instanceof Response) return kept;
  const opened = kept !== undefined ? { session: kept, signOut: false } : await openSession(parts, req, auth);
  if (opened instanceof Response) return opened;
  // One CSRF cookie per browser, so apps mounted side by side share it; the token is the session's.
  const csrfCookie = parts.csrf.cookieFor(req);
  const page = await renderPage(parts, opened.session, csrfCookie, { base, path: pathWithin(req.url, base) });
  // With a shared store, the session (and a rotation made on this load) is stored before its
  // cookie goes out, so the next request finds it at any replica. Not stored, no cookie: a new
  // session ends here (no one holds its id), a kept one stays as it was (src/live/server/http/refusals.ts).
  // Under the session's mutex, with the state as it is then: a task of init that finished
  // meanwhile saves its change under the mutex too, so this save can never land after it with the
  // older state (the store would then say seq 0 while the session is at 1, and a stream opened at
  // another replica would never learn of frame 1).
  const session = opened.session;
  if ((await orStoreFailed(() => session.mutex.run(() => parts.sessions.saveNow(session)))) === STORE_FAILED) {
    if (kept === undefined) parts.sessions.end(session as LiveSession<unknown>);
    return storeUnavailable();
  }
  const resp = new Response(page.html, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
  return pageCookies(parts, resp, req, { id: page.id, csrfCookie, signOut: opened.signOut });
}

/**
 * The cookie's session, when a page load may go on with it; undefined when the load starts a
 * new session instead (none, another user's in a sliding app, or one the gate just evicted).
 */
async function keptSessionFor<Model>(
  parts: LiveAppParts<Model>,
  req: Request,
  auth: JsonObject | undefined,
): Promise<LiveSession<Model> | Response | undefined> {
  const resolved = await parts.sessions.resolve(readSessionId(req, parts.cookieName));
  if (resolved.kind === "elsewhere") return replicaDraining();
  if (resolved.kind !== "live") return undefined;
  const session = resolved.session;
  if (parts.access.userChanged(session, auth)) {
    // A new session, so that init sees the new user; the old id dies.
    parts.sessions.end(session as LiveSession<unknown>);
    return undefined;
  }
  const refused = await parts.access.admit(session, auth, req);
  // An evicted session's page load starts a fresh, signed-out session.
  if (refused !== undefined) return session.ended ? undefined : refused;
  parts.sessions.takeRotation(session); // a bind on page load: the new cookie goes out with the page
  return session;
}

/** A new session for a page load: bound as the access policy says, its model from the app's init. */
async function openSession<Model>(
  parts: LiveAppParts<Model>,
  req: Request,
  auth: JsonObject | undefined,
): Promise<{ session: LiveSession<Model>; signOut: boolean } | Response> {
  // A draining replica takes no new session: the proxy sends the retry elsewhere.
  if (parts.sessions.draining) return replicaDraining();
  const access = await parts.access.forNewSession(auth);
  if (access instanceof Response) return access;
  if (!parts.sessions.makeRoom()) return sessionsFull();
  const [model, cmd] = splitUpdate(parts.definition.init({ url: new URL(req.url), auth: access.auth, request: req }));
  const now = parts.now();
  const session = new LiveSession(
    parts.definition,
    parts.sessions,
    { id: randomToken(), now, extraMessages: parts.extraMessages },
    initialState(model, now),
  );
  // A brand-new id needs no rotation.
  if (access.binding) parts.access.bind(session as LiveSession<unknown>, access.binding, { rotate: false });
  parts.sessions.add(session);
  session.start(cmd);
  return { session, signOut: access.signOut };
}

/** The page's HTML: the session's current render, under its mutex, as a new page of the session. */
function renderPage<Model>(
  parts: LiveAppParts<Model>,
  session: LiveSession<Model>,
  csrfCookie: string,
  where: { base: string; path: string },
): Promise<{ html: string; id: string }> {
  return session.mutex.run(() => {
    session.lastActive = parts.now();
    session.startPage();
    // The id the page's token is bound to is the one its session cookie gets.
    const id = session.id;
    const html = pageHtml({
      title: parts.title,
      head: parts.head,
      basePath: where.base,
      appPath: where.path,
      csrf: parts.csrf.tokenFor(id, csrfCookie),
      seq: session.outSeq,
      handle: parts.sessions.handleOf(session),
      body: render(session.currentTree()),
    });
    return { html, id };
  });
}

/** The page's cookies: the session's, a new browser's CSRF cookie, and a signed-out visitor's token cleared. */
function pageCookies<Model>(
  parts: LiveAppParts<Model>,
  resp: Response,
  req: Request,
  page: { id: string; csrfCookie: string; signOut: boolean },
): Response {
  const secure = parts.secure(req);
  let out = setSessionCookie(resp, parts.cookieName, page.id, secure);
  if (parts.csrf.needsCookie(req, secure)) out = parts.csrf.setCookie(out, page.csrfCookie, secure);
  return page.signOut ? parts.access.clearTokenCookie(out) : out;
}
