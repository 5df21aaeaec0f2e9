/**
 * Result and Task (a Promise of a Result): expected failures are values, never exceptions
 * (CONTRIBUTING.md#conventions). The package exports `Result` and `Task` as both the type and a
 * namespace of these helpers (src/result-namespaces.ts).
 */
import { type ErrorCode, SvcError } from "./errors.ts";

/** A success carrying `value`. */
export type Ok<A> = { readonly ok: true; readonly value: A };
/** A failure carrying an `SvcError`. */
export type Err = { readonly ok: false; readonly error: SvcError };
/** The outcome of an operation that can fail in an expected way: `{ ok: true, value }` or `{ ok: false, error }`. */
export type Result<A> = Ok<A> | Err;
/** The spec's `Task Error a`: it resolves to a Result and never rejects for bad input. */
export type Task<A> = Promise<Result<A>>;

/** A successful `Result`. */
export function ok<A>(value: A): Ok<A>;
/** A successful `Result` with no value. */
export function ok(): Ok<void>;
export function ok<A>(value?: A): Ok<A | undefined> {
  return { ok: true, value };
}

/** A failed `Result`, from a code and message or an `SvcError`. */
export function err(code: ErrorCode, message: string): Err;
/** A failed `Result` carrying `error`. */
export function err(error: SvcError): Err;
export function err(codeOrError: ErrorCode | SvcError, message?: string): Err {
  const error = codeOrError instanceof SvcError ? codeOrError : new SvcError(codeOrError, message ?? codeOrError);
  return { ok: false, error };
}

/** Transforms a successful value; a failure passes through. */
export function map<A, B>(result: Result<A>, f: (value: A) => B): Result<B> {
  return result.ok ? ok(f(result.value)) : result;
}

/** Chains a `Result`-returning step after a success; a failure passes through. */
export function andThen<A, B>(result: Result<A>, f: (value: A) => Result<B>): Result<B> {
  return result.ok ? f(result.value) : result;
}

/** Transforms a failure's error; a success passes through. */
export function mapErr<A>(result: Result<A>, f: (error: SvcError) => SvcError): Result<A> {
  return result.ok ? result : err(f(result.error));
}

/** The successful value, or `fallback` on failure. */
export function unwrapOr<A>(result: Result<A>, fallback: A): A {
  return result.ok ? result.value : fallback;
}

/** The spec's `Task.andThenResult`: a Result-returning step after a Task step. */
export async function andThenResult<A, B>(task: Task<A>, f: (value: A) => Result<B>): Task<B> {
  const result = await task;
  return result.ok ? f(result.value) : result;
}

/** A Task-returning step after a Task step. */
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
