/**
 * Result and Task (a Promise of a Result): expected failures are values, never exceptions
 * (CONTRIBUTING.md#conventions). The package exports `Result` and `Task` as both the type and a
 * namespace of these helpers.
 */
import { type ErrorCode, SvcError } from "./errors.ts";

/** A success carrying `value`. */
export type Ok<A> = {
  /** Always true: test it to narrow a `Result`. */
  readonly ok: true;
  /** What the operation produced. */
  readonly value: A;
};
/** A failure carrying an `SvcError`. */
export type Err = {
  /** Always false: test it to narrow a `Result`. */
  readonly ok: false;
  /** What went wrong: a stable `code` and a message for people. */
  readonly error: SvcError;
};
/** The outcome of an operation that can fail in an expected way: `{ ok: true, value }` or `{ ok: false, error }`. */
export type Result<A> = Ok<A> | Err;
/** The spec's `Task Error a`: it resolves to a Result and never rejects for bad input. */
export type Task<A> = Promise<Result<A>>;

/**
 * A successful `Result`: what a function of the app's own returns on success, so its callers
 * handle failure the way they handle the library's.
 *
 * @example
 * ```ts
 * import { Result } from "svc-live";
 *
 * function parseQuantity(text: string): Result<number> {
 *   const n = Number(text);
 *   return Number.isInteger(n) && n > 0 ? Result.ok(n) : Result.err("invalid_argument", `not a quantity: ${text}`);
 * }
 * ```
 */
export function ok<A>(value: A): Ok<A>;
/** A successful `Result` with no value. */
export function ok(): Ok<void>;
export function ok<A>(value?: A): Ok<A | undefined> {
  return { ok: true, value };
}

/**
 * A failed `Result`, from a code and message or an `SvcError`. The code is one of the package's
 * stable codes (`ErrorCode`), which callers switch on; the message is for people.
 *
 * @example
 * ```ts
 * import { Result } from "svc-live";
 *
 * function withdraw(balance: number, amount: number): Result<number> {
 *   if (amount > balance) return Result.err("invalid_argument", `cannot withdraw ${amount} from ${balance}`);
 *   return Result.ok(balance - amount);
 * }
 * ```
 */
export function err(code: ErrorCode, message: string): Err;
/** A failed `Result` carrying `error`. */
export function err(error: SvcError): Err;
export function err(codeOrError: ErrorCode | SvcError, message?: string): Err {
  const error = codeOrError instanceof SvcError ? codeOrError : new SvcError(codeOrError, message ?? codeOrError);
  return { ok: false, error };
}

/**
 * Transforms a successful value; a failure passes through.
 *
 * @example
 * ```ts
 * import { Auth, Db, Result } from "svc-live";
 *
 * const db = Db.open("file:app.db");
 * const registered = await Auth.register(db, "ada@example.com", "correct horse battery staple");
 * const userPath = Result.map(registered, (id) => `/users/${id}`);
 * ```
 */
export function map<A, B>(result: Result<A>, f: (value: A) => B): Result<B> {
  return result.ok ? ok(f(result.value)) : result;
}

/**
 * Chains a `Result`-returning step after a success; a failure passes through, so the first
 * failure is the one reported.
 *
 * @example
 * ```ts
 * import { Result } from "svc-live";
 *
 * const parse = (text: string): Result<number> =>
 *   Number.isFinite(Number(text)) ? Result.ok(Number(text)) : Result.err("invalid_argument", "not a number");
 * const positive = (n: number): Result<number> => (n > 0 ? Result.ok(n) : Result.err("invalid_argument", "not positive"));
 *
 * const quantity = Result.andThen(parse("3"), positive); // Ok 3
 * ```
 */
export function andThen<A, B>(result: Result<A>, f: (value: A) => Result<B>): Result<B> {
  return result.ok ? f(result.value) : result;
}

/**
 * Transforms a failure's error; a success passes through: to give a lower layer's error the
 * words of the step that failed.
 *
 * @example
 * ```ts
 * import { Db, Result, SvcError } from "svc-live";
 *
 * const db = Db.open("file:app.db");
 * const rows = await db.query({ sql: "SELECT count(*) AS n FROM orders", args: [] });
 * const counted = Result.mapErr(rows, (e) => new SvcError(e.code, `counting orders: ${e.message}`));
 * ```
 */
export function mapErr<A>(result: Result<A>, f: (error: SvcError) => SvcError): Result<A> {
  return result.ok ? result : err(f(result.error));
}

/**
 * The successful value, or `fallback` on failure: for a value with a sensible default.
 *
 * @example
 * ```ts
 * import { Db, Result } from "svc-live";
 *
 * const db = Db.open("file:app.db");
 * const rows = await db.query({ sql: "SELECT count(*) AS n FROM comments WHERE post_id = ?", args: [7] });
 * // A badge that shows 0 rather than nothing when the count cannot be read.
 * const comments = Result.unwrapOr(Result.map(rows, (r) => Number(r[0]?.["n"] ?? 0)), 0);
 * ```
 */
export function unwrapOr<A>(result: Result<A>, fallback: A): A {
  return result.ok ? result.value : fallback;
}

/**
 * The spec's `Task.andThenResult`: a Result-returning step after a Task step (a promise of a
 * Result), without unwrapping by hand; a failure passes through.
 *
 * @example
 * ```ts
 * import { Db, Result, Task } from "svc-live";
 *
 * const db = Db.open("file:app.db");
 * const total = Task.andThenResult(db.query({ sql: "SELECT sum(amount) AS total FROM orders", args: [] }), (rows) =>
 *   typeof rows[0]?.total === "number" ? Result.ok(rows[0].total) : Result.err("db_error", "no total"));
 * ```
 */
export async function andThenResult<A, B>(task: Task<A>, f: (value: A) => Result<B>): Task<B> {
  const result = await task;
  return result.ok ? f(result.value) : result;
}

/**
 * A Task-returning step after a Task step (`Task.andThen`): the second runs only when the first
 * succeeded; a failure passes through.
 *
 * @example
 * ```ts
 * import { Auth, Db, Task } from "svc-live";
 *
 * const db = Db.open("file:app.db");
 * // Register, then make the new user an admin; the first failure is the result.
 * const admin = await Task.andThen(Auth.register(db, "root@example.com", "a long and unguessable phrase"), (id) =>
 *   Auth.setRole(db, id, "admin"));
 * ```
 */
export async function andThenTask<A, B>(task: Task<A>, f: (value: A) => Task<B>): Task<B> {
  const result = await task;
  return result.ok ? f(result.value) : result;
}

/**
 * The value `work` computes, or the error `code` with `message` when it throws: for a platform
 * call that answers bad input by throwing (JSON.parse, JSON.stringify of a cycle).
 */
export function attempt<A>(work: () => A, code: ErrorCode, message: string): Result<A> {
  try {
    return ok(work());
  } catch {
    return err(code, message);
  }
}
