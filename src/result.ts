/**
 * Result and Task (a Promise of a Result): expected failures are values, never exceptions
 * (CONTRIBUTING.md#conventions). `Result` is both the type and a small namespace of helpers.
 */
import { type ErrorCode, SvcError } from "./errors.ts";

export type Ok<A> = { readonly ok: true; readonly value: A };
export type Err = { readonly ok: false; readonly error: SvcError };
export type Result<A> = Ok<A> | Err;
/** The spec's `Task Error a`: it resolves to a Result and never rejects for bad input. */
export type Task<A> = Promise<Result<A>>;

export function ok<A>(value: A): Ok<A>;
export function ok(): Ok<void>;
export function ok<A>(value?: A): Ok<A | undefined> {
  return { ok: true, value };
}

export function err(code: ErrorCode, message: string): Err;
export function err(error: SvcError): Err;
export function err(codeOrError: ErrorCode | SvcError, message?: string): Err {
  const error = codeOrError instanceof SvcError ? codeOrError : new SvcError(codeOrError, message ?? codeOrError);
  return { ok: false, error };
}

export function map<A, B>(result: Result<A>, f: (value: A) => B): Result<B> {
  return result.ok ? ok(f(result.value)) : result;
}

export function andThen<A, B>(result: Result<A>, f: (value: A) => Result<B>): Result<B> {
  return result.ok ? f(result.value) : result;
}

export function mapErr<A>(result: Result<A>, f: (error: SvcError) => SvcError): Result<A> {
  return result.ok ? result : err(f(result.error));
}

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

export const Result = { ok, err, map, andThen, mapErr, unwrapOr } as const;
export const Task = { andThenResult, andThen: andThenTask } as const;
