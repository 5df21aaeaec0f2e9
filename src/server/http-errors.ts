/**
 * Our errors as Hono's: an `Err` from Auth becomes an HTTPException with the status its code
 * means, so a handler can write `const id = Server.orThrow(await Auth.login(db, email, password))`
 * and leave the answer to Hono (or to `app.onError`).
 */
import { HTTPException } from "hono/http-exception";
import type { ErrorCode, SvcError } from "../errors.ts";
import type { Result } from "../result.ts";

type ClientStatus = 400 | 401 | 403 | 404 | 409;

/** The status each code a client can cause means; every other code is the server's fault (500). */
export const HTTP_STATUS: Readonly<Partial<Record<ErrorCode, ClientStatus>>> = {
  expected_string: 400,
  invalid_argument: 400,
  bad_email: 400,
  empty_password: 400,
  password_too_long: 400,
  bad_credentials: 401,
  token_malformed: 401,
  token_bad_alg: 401,
  bad_signature: 401,
  token_expired: 401,
  token_not_yet_valid: 401,
  token_bad_claims: 401,
  sliding_cap_reached: 401,
  user_disabled: 403,
  user_not_found: 404,
  email_taken: 409,
};

/**
 * An HTTPException whose response is its message as plain text. Hono's own leaves the type to the
 * runtime, and Bun's Response then has no Content-Type at all.
 *
 * @example
 * ```ts
 * import { Server } from "svc-live";
 * import { Hono } from "hono";
 *
 * const app = new Hono();
 * app.get("/reports/:year", (c) => {
 *   const year = Number(c.req.param("year"));
 *   if (!Number.isInteger(year)) throw Server.httpException(400, "the year is a number");
 *   return c.text(`report ${year}`);
 * });
 * ```
 */
export function httpException(status: ClientStatus | 500, message: string, cause?: unknown): HTTPException {
  const res = new Response(message, { status, headers: { "Content-Type": "text/plain; charset=UTF-8" } });
  return new HTTPException(status, { message, res, cause });
}

/**
 * The HTTPException for an error: its code's status (`HTTP_STATUS`) and its message, which never
 * holds a secret. A server-side failure says only "internal error"; its cause is kept for logging.
 *
 * @example
 * ```ts
 * import { Auth, Db, Server } from "svc-live";
 * import { Hono } from "hono";
 *
 * const db = Db.open("file:app.db");
 * const app = new Hono();
 * app.post("/users/:id/disable", async (c) => {
 *   const done = await Auth.disableUser(db, Number(c.req.param("id")));
 *   if (!done.ok) throw Server.httpError(done.error); // e.g. 400 for a bad id, 500 "internal error" for the database
 *   return c.body(null, 204);
 * });
 * ```
 */
export function httpError(error: SvcError): HTTPException {
  const status = HTTP_STATUS[error.code];
  return status === undefined ? httpException(500, "internal error", error) : httpException(status, error.message, error);
}

/**
 * The value of an Ok; an Err is thrown as its HTTPException (`Server.httpError`), which Hono
 * turns into the answer: for a handler that has nothing to add to a failure.
 *
 * @example
 * ```ts
 * import { Auth, Db, Server } from "svc-live";
 * import { Hono } from "hono";
 *
 * const db = Db.open("file:app.db");
 * const app = new Hono();
 * app.post("/register", async (c) => {
 *   // 409 for email_taken, 400 for a weak or missing password.
 *   const id = Server.orThrow(await Auth.register(db, await Server.formValue("email", c), await Server.formValue("password", c)));
 *   return c.json({ id }, 201);
 * });
 * ```
 */
export function orThrow<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw httpError(result.error);
}
