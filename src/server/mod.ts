/** svc-live/server: the HTTP server module (docs/auth.md#cookies, docs/auth.md#secure-rule). */
import { clientAddress, clientAddressResolver } from "./client-address.ts";
import { addCookie, cookie, getCookie, withCookie } from "./cookies.ts";
import { checkSecretAtStart, productionGateOn } from "./production.ts";
import { formValue, json, text, withStatus } from "./responses.ts";
import { isHttpsRequest, secureCookies } from "./secure.ts";
import { authSliding } from "./sliding.ts";
import { slidingSession, tokenSession } from "./auth-session.ts";
import { setCookie } from "./context-cookie.ts";
import { requireRole, requireUser } from "./guards.ts";
import { httpError, httpException, orThrow } from "./http-errors.ts";
import { graceful } from "./graceful.ts";

export type { ClientAddressOptions, TrustProxy } from "./client-address.ts";
export type { Cookie } from "./cookies.ts";
export { DEFAULT_COOKIE_ATTRIBUTES } from "./cookies.ts";
export { SECRET_ENV } from "./production.ts";
export type { RevokedCheck, SameSite, SlidingEnv, SlidingOptions } from "./sliding.ts";
export { setSlidingCookie } from "./sliding.ts";
export type {
  AuthEnv,
  AuthUser,
  SecretSource,
  SessionMiddleware,
  SignedInEnv,
  SlidingSessionOptions,
  TokenSessionOptions,
} from "./auth-session.ts";
export type { GuardOptions } from "./guards.ts";
export type { Drainable, DrainStep, Graceful, GracefulOptions, ProbedStore } from "./graceful.ts";
export type { RuntimeServer } from "../runtime/server-stop.ts";
export { HTTP_STATUS } from "./http-errors.ts";
export { requireRole, requireUser, slidingSession, tokenSession };

/** Cookie and response helpers, the Secure-cookie rule, the production gate and the auth middleware (docs/auth.md#cookies). */
export const Server = {
  withCookie,
  cookie,
  addCookie,
  getCookie,
  formValue,
  withStatus,
  text,
  json,
  secureCookies,
  isHttpsRequest,
  productionGateOn,
  checkSecretAtStart,
  /** The client's address: the connection's peer, or behind `trustProxy` proxies the first untrusted hop (docs/deployment.md). */
  clientAddress,
  /** `clientAddress` with its options checked once, for middleware. */
  clientAddressResolver,
  /**
   * The graceful drain and the readiness probe of one replica, for @hono/node-server, Bun's serve
   * and Deno's serve (docs/deployment.md#draining).
   */
  graceful,
  /** The sliding-session re-issue middleware as plain Hono middleware. */
  withAuthSliding: authSliding,
  /** A Hono handler's cookie: set on the response built through `c`, Secure by the rule. */
  setCookie,
  /** Session middleware: the signed-in user on `c.var.auth`, with `signIn` and `signOut` (src/server/auth-session.ts). */
  slidingSession,
  tokenSession,
  /** Guards: 401 without a user, 403 without the role, or a redirect for a page request. */
  requireUser,
  requireRole,
  /** An Err as Hono's HTTPException, with the status its code means (src/server/http-errors.ts). */
  httpError,
  httpException,
  orThrow,
} as const;
