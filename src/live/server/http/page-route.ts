/**
 * GET <base>/* (docs/protocol.md#page): the page. The cookie's session if it may go on, else a new
 * one bound as the access policy says; then its first render as full HTML, with the session and
 * CSRF cookies.
 */
import type { JsonObject } from "../../../json.ts";
import { render } from "../../render.ts";
import type { RouteContext } from "./route-context.ts";
import { setSessionCookie } from "../access/session-cookies.ts";
import { splitUpdate } from "../session/definition.ts";
import { pathWithin } from "./mounting.ts";
import { pageHtml } from "./page.ts";
import { randomToken } from "../registry/registry.ts";
import { LOOKUPS, refusalFor, sessionsFull } from "./refusals.ts";
import { ELSEWHERE, isStoreFailed, LOST, orStoreFailed, STORE_FAILED } from "../registry/lookup.ts";
import { BAD_TOKEN, pageSessionId, tokenPageReply } from "./token-page.ts";
import { LiveSession } from "../session/session.ts";
import { initialState } from "../session/state.ts";
import { logPageError, reportsToPage, withCodeFrame } from "../session/development.ts";
import { developmentErrorPage, productionErrorPage } from "./error-page.ts";

/**
 * A page load (docs/protocol.md#page): the cookie's session if it may go on, else a new one;
 * then its first render as full HTML, with the session and CSRF cookies.
 */
export async function servePage<Model>(
  ctx: RouteContext<Model>,
  req: Request,
  auth: JsonObject | undefined,
  base: string,
): Promise<Response> {
  const named = pageSessionId(ctx, req);
  if (named === BAD_TOKEN) return refusalFor(ctx, req, LOST);
  // One CSRF cookie per browser, so apps mounted side by side share it; the token is the session's.
  const csrfCookie = ctx.csrf.cookieFor(req);
  const path = pathWithin(req.url, base);
  // A copy that moves to another replica (taken over, drained) while the page waits for its lock
  // is not rendered: the session is looked up again (docs/deployment.md#late-notices).
  for (let attempt = 0; attempt < LOOKUPS; attempt++) {
    const kept = await orStoreFailed(() => keptSessionFor(ctx, named, req, auth));
    if (isStoreFailed(kept)) return refusalFor(ctx, req, kept);
    if (kept instanceof Response) return kept;
    // A token names the session it wants; one that ended (or was evicted) is refused, never replaced.
    if (kept === undefined && named !== undefined && ctx.tokens !== undefined) return refusalFor(ctx, req, LOST);
    let opened: Awaited<ReturnType<typeof openSession<Model>>>;
    try {
      opened = kept !== undefined ? { session: kept, signOut: false } : await openSession(ctx, req, auth);
    } catch (error) {
      return failedPage(ctx, req, { path, error });
    }
    if (opened instanceof Response) return opened;
    let page: Awaited<ReturnType<typeof renderPage>>;
    try {
      page = await renderPage(ctx, opened.session, csrfCookie, { base, path });
    } catch (error) {
      // A new session whose first view threw ends here: no page holds it.
      if (kept === undefined) ctx.sessions.end(opened.session);
      return failedPage(ctx, req, { path, error });
    }
    if (page !== undefined) return await storedPage(ctx, req, { opened, kept: kept !== undefined, csrfCookie, page });
  }
  return refusalFor(ctx, req, ELSEWHERE);
}

/** A rendered page, once its session is stored (with a shared store), with its cookies or token. */
async function storedPage<Model>(
  ctx: RouteContext<Model>,
  req: Request,
  { opened, kept, csrfCookie, page }: {
    readonly opened: { readonly session: LiveSession<Model>; readonly signOut: boolean };
    readonly kept: boolean;
    readonly csrfCookie: string;
    readonly page: { readonly html: string; readonly id: string; readonly token: string | undefined };
  },
): Promise<Response> {
  // With a shared store, the session (and a rotation made on this load) is stored before its
  // cookie goes out, so the next request finds it at any replica. Not stored, no cookie: a new
  // session ends here (no one holds its id), a kept one stays as it was (src/live/server/http/refusals.ts).
  // Under the session's mutex, with the state as it is then: a task of init that finished
  // meanwhile saves its change under the mutex too, so this save can never land after it with the
  // older state (the store would then say seq 0 while the session is at 1, and a stream opened at
  // another replica would never learn of frame 1).
  const session = opened.session;
  if (isStoreFailed(await orStoreFailed(() => session.mutex.run(() => ctx.sessions.saveNow(session))))) {
    if (!kept) ctx.sessions.end(session);
    return refusalFor(ctx, req, STORE_FAILED);
  }
  const resp = new Response(page.html, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
  if (page.token !== undefined) return tokenPageReply(ctx, req, resp, { token: page.token, signOut: opened.signOut });
  return pageCookies(ctx, resp, req, { id: page.id, csrfCookie, signOut: opened.signOut });
}

/**
 * The answer to a page load whose `init` or `view` threw: logged under an id, then the error
 * itself in development, and only the app's notice in production (src/live/server/http/error-page.ts).
 */
async function failedPage<Model>(ctx: RouteContext<Model>, req: Request, failed: { path: string; error: unknown }): Promise<Response> {
  const report = logPageError(failed.path, failed.error);
  if (reportsToPage(ctx.definition)) return developmentErrorPage(await withCodeFrame(report, failed.error));
  return productionErrorPage(ctx.failureNotice({ logId: report.logId, request: req }));
}

/**
 * The cookie's session, when a page load may go on with it; undefined when the load starts a
 * new session instead (none, another user's in a sliding app, or one the gate just evicted).
 */
async function keptSessionFor<Model>(
  ctx: RouteContext<Model>,
  id: string | undefined,
  req: Request,
  auth: JsonObject | undefined,
): Promise<LiveSession<Model> | Response | undefined> {
  const resolved = await ctx.sessions.resolve(id);
  if (resolved.kind === "elsewhere") return refusalFor(ctx, req, resolved);
  if (resolved.kind !== "live") return undefined;
  const session = resolved.session;
  if (ctx.access.userChanged(session, auth)) {
    // A new session, so that init sees the new user; the old id dies.
    ctx.sessions.end(session);
    return undefined;
  }
  const refused = await ctx.access.admit(session, auth);
  // An evicted session's page load starts a fresh, signed-out session.
  if (refused !== undefined) return session.life === "ended" ? undefined : refusalFor(ctx, req, refused);
  ctx.sessions.takeRotation(session); // a bind on page load: the new cookie goes out with the page
  return session;
}

/** A new session for a page load: bound as the access policy says, its model from the app's init. */
async function openSession<Model>(
  ctx: RouteContext<Model>,
  req: Request,
  auth: JsonObject | undefined,
): Promise<{ session: LiveSession<Model>; signOut: boolean } | Response> {
  // A draining replica takes no new session: the proxy sends the retry elsewhere.
  if (ctx.sessions.draining) return refusalFor(ctx, req, ELSEWHERE);
  const access = await ctx.access.forNewSession(auth);
  if ("kind" in access) return refusalFor(ctx, req, access);
  if (!ctx.sessions.makeRoom()) return sessionsFull();
  // A drain that began while the access was read took its snapshot of the sessions here already:
  // a session added now would never be handed back, nor its streams closed.
  if (ctx.sessions.draining) return refusalFor(ctx, req, ELSEWHERE);
  const [model, cmd] = splitUpdate(ctx.definition.init({ url: new URL(req.url), auth: access.auth, request: req }));
  const now = ctx.now();
  const session = new LiveSession(
    ctx.definition,
    ctx.sessions,
    { id: randomToken(), now, extraMessages: ctx.extraMessages, state: initialState(model, now) },
  );
  // A brand-new id needs no rotation.
  if (access.binding) ctx.access.bind(session, access.binding, { rotate: false });
  ctx.sessions.add(session);
  session.start(cmd);
  return { session, signOut: access.signOut };
}

/** The page's HTML: the session's current render, under its mutex, as a new page of the session; undefined when the copy stopped meanwhile. */
function renderPage<Model>(
  ctx: RouteContext<Model>,
  session: LiveSession<Model>,
  csrfCookie: string,
  where: { base: string; path: string },
): Promise<{ html: string; id: string; token: string | undefined } | undefined> {
  return session.mutex.run(() => {
    if (!session.isLive) return undefined;
    session.lastActive = ctx.now();
    session.startPage();
    // The id the page's token is bound to is the one its session cookie gets.
    const id = session.id;
    const token = ctx.tokens?.issue(id);
    const html = pageHtml({
      title: ctx.title,
      head: ctx.head,
      basePath: where.base,
      appPath: where.path,
      // A token session needs no CSRF token: its X-Svc-Session header is the defence.
      csrf: token === undefined ? ctx.csrf.tokenFor(id, csrfCookie) : "",
      ...(token === undefined ? {} : { sessionToken: token }),
      seq: session.outSeq,
      handle: ctx.sessions.handleOf(session),
      body: render(session.currentTree()),
      client: ctx.client,
    });
    return { html, id, token };
  });
}

/** The page's cookies: the session's, a new browser's CSRF cookie, and a signed-out visitor's token cleared. */
function pageCookies<Model>(
  ctx: RouteContext<Model>,
  resp: Response,
  req: Request,
  page: { id: string; csrfCookie: string; signOut: boolean },
): Response {
  const secure = ctx.secure(req);
  let out = setSessionCookie(resp, ctx.cookieName, page.id, secure);
  if (ctx.csrf.needsCookie(req, secure)) out = ctx.csrf.setCookie(out, page.csrfCookie, secure);
  return page.signOut ? ctx.access.clearTokenCookie(out, req) : out;
}
