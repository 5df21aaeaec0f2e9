/** svc-live/auth: Std.Auth (docs/auth.md). `Auth.x` mirrors the spec's operation names. */
import * as passwords from "./password.ts";
import * as strength from "./strength.ts";
import * as slidingTokens from "./sliding.ts";
import * as tokens from "./token.ts";
import * as users from "./users.ts";
import * as revocation from "./revocation.ts";

export { MIN_SECRET_BYTES, Secret, SECRET_PLACEHOLDER } from "./secret.ts";
export type { Claims, Jsonable } from "./claims.ts";
export type { ClockOptions } from "./token.ts";
export type { SlidingParams, SlidingTimes } from "./sliding.ts";
export type { StrengthLabel } from "./strength.ts";
export { DEFAULT_COST, MAX_PASSWORD_BYTES } from "./bcrypt.ts";
export type { LoginOptions, RegisterOptions } from "./users.ts";
export type { AccessState } from "./revocation.ts";
export type { UserIdInput } from "./user-id.ts";

/** Passwords, tokens, sliding tokens, the users table and revocation: `Auth.signToken(...)`, `Auth.register(db, ...)` (docs/auth.md). */
// deno-lint-ignore no-namespace -- aliases: the API reference shows each member's own signature, text and example
export namespace Auth {
  export import hashPassword = passwords.hashPassword;
  export import hashPasswordCost = passwords.hashPasswordCost;
  export import verifyPassword = passwords.verifyPassword;
  export import hashPasswordSync = passwords.hashPasswordSync;
  export import hashPasswordCostSync = passwords.hashPasswordCostSync;
  export import verifyPasswordSync = passwords.verifyPasswordSync;
  export import closePasswordWorkers = passwords.closePasswordWorkers;
  export import passwordStrength = strength.passwordStrength;
  export import signToken = tokens.signToken;
  export import verifyToken = tokens.verifyToken;
  export import signSlidingToken = slidingTokens.signSlidingToken;
  export import verifySlidingToken = slidingTokens.verifySlidingToken;
  export import reissueSlidingToken = slidingTokens.reissueSlidingToken;
  export import slidingTimes = slidingTokens.slidingTimes;
  export import register = users.register;
  export import login = users.login;
  export import setRole = users.setRole;
  export import revokeUser = revocation.revokeUser;
  export import disableUser = revocation.disableUser;
  export import enableUser = revocation.enableUser;
  export import userAccessState = revocation.userAccessState;
  export import isRevoked = revocation.isRevoked;
  export import isDisabled = revocation.isDisabled;
}
