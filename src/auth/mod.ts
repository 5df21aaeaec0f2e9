/** svc-live/auth: Std.Auth (docs/auth.md). `Auth.x` mirrors the spec's operation names. */
import {
  closePasswordWorkers,
  hashPassword,
  hashPasswordCost,
  hashPasswordCostSync,
  hashPasswordSync,
  verifyPassword,
  verifyPasswordSync,
} from "./password.ts";
import { passwordStrength } from "./strength.ts";
import { reissueSlidingToken, signSlidingToken, slidingTimes, verifySlidingToken } from "./sliding.ts";
import { signToken, verifyToken } from "./token.ts";
import { login, register, setRole } from "./users.ts";
import { disableUser, enableUser, isDisabled, isRevoked, revokeUser, userAccessState } from "./revocation.ts";

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
export const Auth = {
  hashPassword,
  hashPasswordCost,
  verifyPassword,
  hashPasswordSync,
  hashPasswordCostSync,
  verifyPasswordSync,
  closePasswordWorkers,
  passwordStrength,
  signToken,
  verifyToken,
  signSlidingToken,
  verifySlidingToken,
  reissueSlidingToken,
  slidingTimes,
  register,
  login,
  setRole,
  revokeUser,
  disableUser,
  enableUser,
  userAccessState,
  isRevoked,
  isDisabled,
} as const;
