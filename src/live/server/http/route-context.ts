/**
 * What every route of the live app reads (docs/protocol.md#endpoints): the app's definition, its
 * sessions and their access policy, the CSRF tokens, the cookie's name and the page settings. The
 * app (src/live/server/app/app.ts) builds it once; every route takes it as its first argument.
 */
import type { ClientKind } from "./client-script.ts";
import type { CsrfTokens } from "./csrf.ts";
import type { RunningDefinition } from "../session/definition.ts";
import type { SessionRegistry } from "../registry/registry.ts";
import type { Replication } from "../replicas/replication.ts";
import type { SessionAccess } from "../access/session-access.ts";
import type { SessionTokens } from "./session-tokens.ts";
import type { FailureNoticeInput } from "./error-page.ts";

/** The state and settings the live app's routes read. */
export type RouteContext<Model> = {
  readonly definition: RunningDefinition<Model>;
  readonly sessions: SessionRegistry<Model>;
  /** Who may use a session, and as whom: token binding and the revocation gate. */
  readonly access: SessionAccess<Model>;
  readonly csrf: CsrfTokens;
  /** The session cookie's name (docs/protocol.md#sessions-and-cookies). */
  readonly cookieName: string;
  /** The session tokens of an app built with `{ session: "token" }` (docs/protocol.md#token-sessions); undefined: cookies. */
  readonly tokens: SessionTokens | undefined;
  /** The secret id of the session a request names: by its cookie, or by its X-Svc-Session token. */
  readonly sessionIdOf: (req: Request) => string | undefined;
  readonly now: () => number;
  /** Messages accepted even when no handler of the current render names them. */
  readonly extraMessages: ReadonlySet<string>;
  /** Whether a request comes from the app's own origin (src/live/server/http/origin.ts). */
  readonly originAllowed: (req: Request) => boolean;
  /** Whether a request came over HTTPS (its cookies are then Secure and __Host- prefixed). */
  readonly secure: (req: Request) => boolean;
  /** The page's <title> and extra <head> markup. */
  readonly title: string;
  readonly head: string;
  /** The browser client the page loads (LiveAppOptions.client). */
  readonly client: ClientKind;
  readonly heartbeatMs: number;
  /** The notice a user sees for a failure (LiveAppOptions.failureNotice, or its default). */
  readonly failureNotice: (failure: FailureNoticeInput) => string;
  /** The replication of shared sessions, once the app has it (withSharedSessions). */
  readonly replication: () => Replication | undefined;
};
