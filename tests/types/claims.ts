// Type tests, checked by `tsc --noEmit` in CI (npm run typecheck); never executed.
// docs/auth.md#results-and-errors: claims holding a function, a Secret, a key or a handle are refused at
// compile time. Each @ts-expect-error below fails the type-check if the line ever compiles.
import { Auth, Secret } from "../../src/auth/mod.ts";
import type { JsonValue } from "../../src/json.ts";
import type { Result } from "../../src/result.ts";

declare const secret: Secret;
declare const cryptoKey: CryptoKey;
const window = { windowSeconds: 900, maxLifetimeSeconds: 86_400 };

interface SessionClaims {
  sub: string;
  roles: string[];
  org?: { id: number; name: string | null };
}
declare const session: SessionClaims;

// Accepted: records, interfaces, nested arrays, optional fields, primitives.
Auth.signToken(secret, { sub: "42", n: 1, ok: true, nothing: null, list: [1, "a", { x: [] }] }, 60);
Auth.signToken(secret, session, 60);
Auth.signToken(secret, "just a string", 60);
Auth.signToken(secret, 42, 60);
Auth.signToken(secret, [1, 2, 3], 60);
Auth.signSlidingToken(secret, session, window);

// Refused: functions, anywhere.
// @ts-expect-error a function has no JSON form
Auth.signToken(secret, () => 1, 60);
// @ts-expect-error a method in a record
Auth.signToken(secret, { sub: "1", f: () => 1 }, 60);
// @ts-expect-error a function deep inside
Auth.signToken(secret, { a: { b: [{ c: (x: number) => x }] } }, 60);
// @ts-expect-error a class instance with methods (a handle)
Auth.signToken(secret, { when: new Map<string, string>() }, 60);

// Refused: secrets and keys.
// @ts-expect-error a Secret as the claims
Auth.signToken(secret, secret, 60);
// @ts-expect-error a Secret inside the claims
Auth.signToken(secret, { sub: "1", secret }, 60);
// @ts-expect-error a CryptoKey inside the claims
Auth.signToken(secret, { key: cryptoKey }, 60);
// @ts-expect-error a Secret in sliding claims
Auth.signSlidingToken(secret, { s: secret }, window);

// Refused: values JSON cannot carry.
// @ts-expect-error a bigint
Auth.signToken(secret, { n: 10n }, 60);
// @ts-expect-error a symbol
Auth.signToken(secret, { s: Symbol("x") }, 60);

// Refused: wrong argument types.
// @ts-expect-error the secret must be a Secret, not its text
Auth.signToken("a-secret-a-secret-a-secret-a-secret", { sub: "1" }, 60);
// @ts-expect-error the expiry is a number of seconds
Auth.signToken(secret, { sub: "1" }, "60");
// @ts-expect-error a password is a String (E2001 in the spec)
void Auth.hashPassword(42);

// verifyToken returns JSON values, not a caller-chosen type (docs/auth.md#tokens).
const verified: Result<JsonValue> = Auth.verifyToken(secret, "token");
if (verified.ok) {
  // @ts-expect-error the claims are JsonValue, so a field access needs a check first
  const sub: string = verified.value.sub;
  void sub;
}
