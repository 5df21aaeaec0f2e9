/**
 * `Result` and `Task` as the package exports them: each is the type (src/result.ts) and a
 * namespace of its helpers, aliases of the functions, so `Result.ok(value)` and `Result<A>` both
 * work, and the API reference shows each helper's own signature (CONTRIBUTING.md#documenting-exports).
 */
import * as results from "./result.ts";

/** The outcome of an operation that can fail in an expected way: `{ ok: true, value }` or `{ ok: false, error }`. */
export type Result<A> = results.Result<A>;
/** The helpers of `Result`: `Result.ok(value)`, `Result.err(code, message)`, `Result.map`, `Result.andThen`, `Result.mapErr`, `Result.unwrapOr`. */
// deno-lint-ignore no-namespace -- aliases: the API reference shows each member's own signature, text and example
export namespace Result {
  export import ok = results.ok;
  export import err = results.err;
  export import map = results.map;
  export import andThen = results.andThen;
  export import mapErr = results.mapErr;
  export import unwrapOr = results.unwrapOr;
}

/** The spec's `Task Error a`: a Promise of a `Result`, which never rejects for bad input. */
export type Task<A> = results.Task<A>;
/** The helpers of `Task`: `Task.andThenResult`, `Task.andThen`. */
// deno-lint-ignore no-namespace -- aliases: the API reference shows each member's own signature, text and example
export namespace Task {
  export import andThenResult = results.andThenResult;
  export import andThen = results.andThenTask;
}
