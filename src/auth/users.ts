/**
 * Layer 2, the built-in users table (docs/auth.md#users-table).
 *
 *   register(db, email, password, { cost }?) -> Task<number>   the new user id
 *   login(db, email, password, { cost }?)    -> Task<number>   the authenticated user id
 *   setRole(db, userId, role)                -> Task<void>
 *
 * The tables are created by the first call that needs them on a handle (at the latest the first
 * register). Uniqueness of the email is the database's UNIQUE constraint: a concurrent duplicate
 * loses at INSERT and becomes Err "email_taken", so 100 racing registrations make one user.
 */
import { Db, DbError } from "../db/db.ts";
import { ensureSchema, millis, schemaFor } from "../db/schema.ts";
import { err, ok, type Result, type Task } from "../result.ts";
import { checkCost, checkPassword, DEFAULT_COST } from "./bcrypt.ts";
import { expectStrings } from "./boundary.ts";
import { checkEmail } from "./email.ts";
import { dummyHash, rememberCost } from "./login-timing.ts";
import { hashPasswordCost, verifyPassword } from "./password.ts";

/** Options of `Auth.register`. */
export type RegisterOptions = {
  /**
   * bcrypt cost of the stored hash; default 12 (docs/auth.md#limits). 13-14 are suggested for
   * production, 10 or less only for tests and fixtures.
   */
  readonly cost?: number;
};

/** Options of `Auth.login`. */
export type LoginOptions = {
  /**
   * The bcrypt cost the application registers users with (default 12). An unknown email is
   * verified against a dummy hash of this cost from the first request on, so that it takes as
   * long as a known one (docs/security.md#login-timing). Pass the same cost as to register.
   */
  readonly cost?: number;
};

export function checkDb(db: unknown): Result<Db> {
  return db instanceof Db ? ok(db) : err("invalid_argument", "expected a Db (Db.open, Db.fromLibsql or Db.fromPostgres)");
}

function credentials(
  kernel: "register" | "login",
  db: unknown,
  email: unknown,
  password: unknown,
): Result<{ db: Db; email: string; password: string }> {
  const strings = expectStrings(kernel, email, password);
  if (!strings.ok) return strings;
  const handle = checkDb(db);
  if (!handle.ok) return handle;
  const normal = checkEmail(email as string);
  if (!normal.ok) return normal;
  if (password === "") return err("empty_password", "password is empty");
  return ok({ db: handle.value, email: normal.value, password: password as string });
}

/**
 * Creates a user in the users table with a bcrypt hash of the password (docs/auth.md#users-table).
 * The email is normalised (trimmed, lower-cased) and must be unique. Never rejects.
 *
 * @param db the database handle (`Db.open(url)`), whose schema `Db.migrate` has created
 * @param options `cost`: bcrypt's cost for this hash; `role`: the user's role
 * @returns Ok with the new user's id, or Err "email_taken", "bad_email", "empty_password",
 *   "password_too_long", "bad_cost" or "db_error"
 * @example
 * ```ts
 * import { Auth, Db } from "svc-live";
 *
 * const db = Db.open("file:app.db");
 * const created = await Auth.register(db, "ada@example.com", "correct horse battery staple");
 * if (!created.ok && created.error.code === "email_taken") console.log("that email has an account");
 * ```
 */
export async function register(db: Db, email: string, password: string, options?: RegisterOptions): Task<number> {
  const input = credentials("register", db, email, password);
  if (!input.ok) return input;
  // Refuse what the hasher would refuse before spending a query or a hash on it.
  const cost = checkCost(options?.cost ?? DEFAULT_COST);
  if (!cost.ok) return cost;
  const length = checkPassword(input.value.password);
  if (!length.ok) return length;

  const handle = input.value.db;
  const schema = await ensureSchema(handle);
  if (!schema.ok) return schema;
  const hash = await hashPasswordCost(input.value.password, cost.value);
  if (!hash.ok) return hash;
  rememberCost(handle, cost.value);

  const inserted = await handle.transaction(schemaFor(handle).insertUser(input.value.email, hash.value, handle.clock()));
  if (!inserted.ok) {
    const e = inserted.error;
    return e instanceof DbError && e.uniqueViolation ? err("email_taken", "an account with this email already exists") : inserted;
  }
  const id = Number(inserted.value[0]?.[0]?.id);
  return Number.isSafeInteger(id) ? ok(id) : err("db_error", "register: the database returned no id");
}

/**
 * Checks an email and password against the users table. An unknown email and a wrong password
 * take the same work and give the same error, so the answer's timing does not tell them apart;
 * a suspended account is refused before its password is checked. Never rejects.
 *
 * @returns Ok with the user's id, or Err "bad_credentials" (unknown email or wrong password),
 *   "user_disabled", "bad_cost" (a cost option outside 4..31) or "db_error"
 * @example
 * ```ts
 * import { Auth, Db, Server } from "svc-live";
 * import { Hono } from "hono";
 *
 * const db = Db.open("file:app.db");
 * const session = Server.slidingSession({ cookie: "sid", secretEnv: "SVC_AUTH_TOKEN_SECRET", windowSeconds: 900, maxLifetimeSeconds: 43_200 });
 * const app = new Hono().use(session);
 * app.post("/login", async (c) => {
 *   const user = await Auth.login(db, await Server.formValue("email", c), await Server.formValue("password", c));
 *   if (!user.ok) return c.text("wrong email or password", 401);
 *   session.signIn(c, user.value);
 *   return c.redirect("/", 303);
 * });
 * ```
 */
export async function login(db: Db, email: string, password: string, options?: LoginOptions): Task<number> {
  const input = credentials("login", db, email, password);
  if (!input.ok) return input;
  const cost = options?.cost === undefined ? undefined : checkCost(options.cost);
  if (cost !== undefined && !cost.ok) return cost;
  const handle = input.value.db;
  const schema = await ensureSchema(handle);
  if (!schema.ok) return schema;
  const found = await handle.query(schemaFor(handle).findLogin(input.value.email));
  if (!found.ok) return found;

  const row = found.value[0];
  if (row === undefined) {
    const burned = await verifyPassword(input.value.password, dummyHash(handle, cost?.value));
    return burned.ok ? err("bad_credentials", "wrong email or password") : burned;
  }
  // docs/auth.md#revocation-and-suspension: a disabled user cannot log in, checked before the verify.
  if (millis(row.disabled_at) !== undefined) return err("user_disabled", "this account is disabled");

  const stored = String(row.password_hash);
  rememberCost(handle, stored);
  const matches = await verifyPassword(input.value.password, stored);
  if (!matches.ok) return matches;
  if (!matches.value) return err("bad_credentials", "wrong email or password");
  const id = Number(row.id);
  return Number.isSafeInteger(id) ? ok(id) : err("db_error", "login: the stored id is not an integer");
}

/**
 * Sets a user's role in the users table (`Server.requireRole` reads it from the token): Err
 * "user_not_found" when no row has that id, "invalid_argument" for an empty role.
 *
 * @example
 * ```ts
 * import { Auth, Db } from "svc-live";
 *
 * const db = Db.open("file:app.db");
 * const id = await Auth.register(db, "grace@example.com", "a long and unguessable phrase");
 * if (id.ok) await Auth.setRole(db, id.value, "editor");
 * ```
 */
export async function setRole(db: Db, userId: number, role: string): Task<void> {
  const strings = expectStrings("setRole", role);
  if (!strings.ok) return strings;
  const handle = checkDb(db);
  if (!handle.ok) return handle;
  if (typeof userId !== "number" || !Number.isSafeInteger(userId) || userId < 1) {
    return err("invalid_argument", "setRole: user id must be a positive integer");
  }
  if (role.trim() === "") return err("invalid_argument", "setRole: role must not be empty");
  const schema = await ensureSchema(handle.value);
  if (!schema.ok) return schema;
  const updated = await handle.value.query(schemaFor(handle.value).setRole(userId, role));
  if (!updated.ok) return updated;
  return updated.value.length > 0 ? ok() : err("user_not_found", `no user with id ${userId}`);
}
