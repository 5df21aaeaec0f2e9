/** svc-live/server: the HTTP server module (docs/auth.md#cookies, docs/auth.md#secure-rule). */
import * as clientAddresses from "./client-address.ts";
import * as cookies from "./cookies.ts";
import * as production from "./production.ts";
import * as responses from "./responses.ts";
import * as secure from "./secure.ts";
import * as sliding from "./sliding.ts";
import * as sessions from "./auth-session.ts";
import * as contextCookies from "./context-cookie.ts";
import * as guards from "./guards.ts";
import * as httpErrors from "./http-errors.ts";
import * as gracefulDrain from "./graceful.ts";

export type { ClientAddressOptions, TrustProxy } from "./client-address.ts";
export type { Cookie } from "./cookies.ts";
export { DEFAULT_COOKIE_ATTRIBUTES } from "./cookies.ts";
export { type ProductionSignal, SECRET_ENV } from "./production.ts";
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
export { requireRole, requireUser } from "./guards.ts";
export { slidingSession, tokenSession } from "./auth-session.ts";

/** Cookie and response helpers, the Secure-cookie rule, the production gate and the auth middleware (docs/auth.md#cookies). */
// deno-lint-ignore no-namespace -- aliases: the API reference shows each member's own signature, text and example
export namespace Server {
  export import withCookie = cookies.withCookie;
  export import cookie = cookies.cookie;
  export import addCookie = cookies.addCookie;
  export import getCookie = cookies.getCookie;
  export import formValue = responses.formValue;
  export import withStatus = responses.withStatus;
  export import text = responses.text;
  export import json = responses.json;
  export import secureCookies = secure.secureCookies;
  export import isHttpsRequest = secure.isHttpsRequest;
  export import productionGateOn = production.productionGateOn;
  export import productionSignal = production.productionSignal;
  export import checkSecretAtStart = production.checkSecretAtStart;
  export import clientAddress = clientAddresses.clientAddress;
  export import clientAddressResolver = clientAddresses.clientAddressResolver;
  export import graceful = gracefulDrain.graceful;
  export import withAuthSliding = sliding.authSliding;
  export import setCookie = contextCookies.setCookie;
  export import slidingSession = sessions.slidingSession;
  export import tokenSession = sessions.tokenSession;
  export import requireUser = guards.requireUser;
  export import requireRole = guards.requireRole;
  export import httpError = httpErrors.httpError;
  export import httpException = httpErrors.httpException;
  export import orThrow = httpErrors.orThrow;
}
