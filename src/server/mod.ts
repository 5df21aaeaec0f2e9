/** svc-live/server: the HTTP server module (std-auth.md §Cookie helpers, §Authentication 6-8). */
import { clientAddress, clientAddressResolver } from "./client-address.ts";
import { addCookie, cookie, getCookie, withCookie } from "./cookies.ts";
import { checkSecretAtStart, productionGateOn } from "./production.ts";
import { formValue, json, text, withStatus } from "./responses.ts";
import { isHttpsRequest, secureCookies } from "./secure.ts";
import { authSliding } from "./sliding.ts";

export type { ClientAddressOptions, TrustProxy } from "./client-address.ts";
export type { Cookie } from "./cookies.ts";
export { DEFAULT_COOKIE_ATTRIBUTES } from "./cookies.ts";
export { SECRET_ENV } from "./production.ts";
export type { RevokedCheck, SameSite, SlidingEnv, SlidingOptions } from "./sliding.ts";
export { setSlidingCookie } from "./sliding.ts";

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
  /** The sliding-session re-issue middleware as plain Hono middleware. */
  withAuthSliding: authSliding,
} as const;
