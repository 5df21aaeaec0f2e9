/**
 * POST <base>/_svc/event as the live app serves it (src/live/server/http/event-route.ts does the
 * checks and the processing): an event held to the end of the turn when the server is busy
 * (src/live/server/http/turn-batch.ts), and the route outside the router, for an app with no
 * middleware.
 */
import type { JsonObject } from "../../../json.ts";
import { log } from "../../../log.ts";
import { cookieWritten } from "../../../server/cookies.ts";
import { secureResponseCookies } from "../../../server/secure.ts";
import type { RouteContext } from "./route-context.ts";
import { handleEvent } from "../http/event-route.ts";
import { eventHold } from "../http/turn-batch.ts";

/** The live app's event route. */
export class AppEvents<Model> {
  constructor(
    private readonly ctx: RouteContext<Model>,
    /** The app's <PREFIX>_ENV prefix, for the Secure-cookie rule. */
    private readonly prefix: string | undefined,
  ) {}

  /** An event, processed at the end of the turn when the server is busy (src/live/server/http/turn-batch.ts). */
  handle(req: Request, auth: JsonObject | undefined): Promise<Response> {
    return handleEvent(this.ctx, req, auth, eventHold());
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
}
