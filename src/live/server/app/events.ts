/**
 * POST <base>/_svc/event as the live app serves it (src/live/server/http/event-route.ts does the
 * checks and the processing): the route's context, made once from the app's parts; an event held
 * to the end of the turn when the server is busy (src/live/server/http/turn-batch.ts); and the route
 * outside the router, for an app with no middleware.
 */
import type { JsonObject } from "../../../json.ts";
import { log } from "../../../log.ts";
import { cookieWritten } from "../../../server/cookies.ts";
import { secureResponseCookies } from "../../../server/secure.ts";
import type { LiveAppParts } from "./route-context.ts";
import { sessionIdIn } from "../http/session-cookies.ts";
import { type EventRouteContext, handleEvent } from "../http/event-route.ts";
import { checkToken, finishReply } from "../http/rotation.ts";
import { eventHold } from "../http/turn-batch.ts";

/** The live app's event route. */
export class AppEvents<Model> {
  /** What the event route needs of the app: made once, not per event. */
  private context: EventRouteContext<Model> | undefined;

  constructor(
    private readonly parts: LiveAppParts<Model>,
    /** The app's <PREFIX>_ENV prefix, for the Secure-cookie rule. */
    private readonly prefix: string | undefined,
  ) {}

  /** An event, processed at the end of the turn when the server is busy (src/live/server/http/turn-batch.ts). */
  handle(req: Request, auth: JsonObject | undefined): Promise<Response> {
    const context = (this.context ??= this.makeContext());
    return handleEvent(req, context, auth, eventHold());
  }

  /**
   * The event route outside the router: what the middleware and Hono's error handler would do
   * around it. Every cookie an event reply can carry (a rotated or ended session's) is written by
   * `withCookie`, so only such replies have their cookies checked against the Secure rule.
   */
  async direct(req: Request): Promise<Response> {
    try {
      const resp = await this.handle(req, undefined);
      return cookieWritten(resp) ? secureResponseCookies(req, resp, this.prefix) : resp;
    } catch (error) {
      log.error(`live.event failed: ${error instanceof Error ? error.message : String(error)}`);
      return new Response("Internal Server Error", { status: 500 });
    }
  }

  private makeContext(): EventRouteContext<Model> {
    const parts = this.parts;
    return {
      registry: parts.sessions,
      now: parts.now,
      sessionIdOf: (cookies) => sessionIdIn(cookies, parts.cookieName),
      // Nothing to check without a gate or a sliding token: no extra async step on the hot path.
      admit: (session, r, auth) => (parts.access.checksAnything ? parts.access.admit(session, auth, r) : undefined),
      finish: (session, r, resp) => finishReply(parts, session, r, resp),
      originAllowed: parts.originAllowed,
      checkToken: (session, cookies, token) => checkToken(parts, session, cookies, token),
      tokenOf: (session, r) => parts.csrf.tokenOf(r, session.id),
    };
  }
}
