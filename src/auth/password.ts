/**
 * Password hashing (docs/auth.md#overview): bcrypt, default cost 12, verified in constant time.
 *
 * The async functions run off the main thread (the runtime's native bcrypt or our worker pool)
 * and resolve to a Result; each has a ...Sync twin for scripts. Every entry point applies the same
 * checks first: a string (docs/auth.md#boundary-checks), at most 72 bytes, a cost in 4..31, a real hash.
 */
import { andThen, err, ok, type Result, type Task } from "../result.ts";
import { nativeBcrypt } from "../runtime/native-bcrypt.ts";
import { bcryptHash, bcryptVerify, checkCost, checkHash, checkPassword, DEFAULT_COST, isTooLong } from "./bcrypt.ts";
import { expectString, expectStrings, type Kernel } from "./boundary.ts";
import { PasswordPool } from "./password-pool.ts";

let pool: PasswordPool | undefined;
const sharedPool = () => (pool ??= new PasswordPool());

/**
 * Stops the bcrypt worker threads (they restart on the next call): a process whose last hash is
 * done can then exit without waiting for idle workers. For clean shutdowns and tests.
 *
 * @example
 * ```ts
 * import { Auth } from "svc-live";
 *
 * const hash = await Auth.hashPassword("correct horse battery staple");
 * Auth.closePasswordWorkers(); // a one-off script: let the process exit now
 * ```
 */
export function closePasswordWorkers(): void {
  pool?.close();
  pool = undefined;
}

function hashInput(kernel: Kernel, password: unknown, cost: unknown): Result<{ password: string; cost: number }> {
  return andThen(
    expectString(kernel, password),
    (checked) => andThen(checkPassword(checked), () => andThen(checkCost(cost), (goodCost) => ok({ password: checked, cost: goodCost }))),
  );
}

function verifyInput(password: unknown, hash: unknown): Result<{ password: string; hash: string }> {
  const strings = expectStrings("verifyPassword", password, hash);
  if (!strings.ok) return strings;
  return andThen(checkHash(hash as string), (goodHash) => ok({ password: password as string, hash: goodHash }));
}

/** The runtime's bcrypt refuses an empty password, which bcrypt itself allows: those go to the pool. */
const useNative = (password: string) => nativeBcrypt !== undefined && password !== "";

async function hashOffThread(password: string, cost: number): Task<string> {
  return offThread(password, (bcrypt) => bcrypt.hash(password, cost), { op: "hash", password, cost });
}

async function verifyOffThread(password: string, hash: string): Task<boolean> {
  if (isTooLong(password)) return ok(false);
  return offThread(password, (bcrypt) => bcrypt.verify(password, hash), { op: "verify", password, hash });
}

/** A bcrypt job: on the runtime's own bcrypt when it takes this password, else on the worker pool. */
async function offThread<A>(
  password: string,
  native: (bcrypt: NonNullable<typeof nativeBcrypt>) => Promise<A>,
  job: Parameters<ReturnType<typeof sharedPool>["run"]>[0],
): Task<A> {
  try {
    if (nativeBcrypt && useNative(password)) return ok(await native(nativeBcrypt));
    const answer = await sharedPool().run(job);
    return answer.ok ? ok(answer.value as A) : err("hash_failed", answer.message);
  } catch (error) {
    return err("hash_failed", `bcrypt failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Hashes a password with bcrypt at the default cost, 12, off the calling thread (the runtime's
 * own bcrypt, or a worker), so a server keeps answering meanwhile. `Auth.register` hashes for
 * you; this is for a users table of the app's own.
 *
 * @returns Ok with the hash, or Err `invalid_argument` (not a string, longer than 72 bytes) or
 *   `hash_failed`
 *
 * @example
 * ```ts
 * import { Auth, Db } from "svc-live";
 *
 * const db = Db.open("file:app.db");
 * const hash = await Auth.hashPassword("correct horse battery staple");
 * if (hash.ok) await db.query({ sql: "UPDATE staff SET password_hash = ? WHERE login = ?", args: [hash.value, "ada"] });
 * ```
 */
export function hashPassword(password: string): Task<string> {
  const input = hashInput("hashPassword", password, DEFAULT_COST);
  return input.ok ? hashOffThread(input.value.password, input.value.cost) : Promise.resolve(input);
}

/**
 * Hashes a password with bcrypt at an explicit cost (4..31; each step doubles the time: 10 only
 * for tests, 13-14 for production on a fast machine).
 *
 * @example
 * ```ts
 * import { Auth } from "svc-live";
 *
 * const hash = await Auth.hashPasswordCost("correct horse battery staple", 13);
 * console.log(hash.ok && hash.value.startsWith("$2b$13$")); // true
 * ```
 */
export function hashPasswordCost(password: string, cost: number): Task<string> {
  const input = hashInput("hashPasswordCost", password, cost);
  return input.ok ? hashOffThread(input.value.password, input.value.cost) : Promise.resolve(input);
}

/**
 * Checks a password against a bcrypt hash, off the calling thread, in constant time: Ok(true)
 * when it matches, Ok(false) when not, Err `invalid_argument` for a malformed hash.
 *
 * @example
 * ```ts
 * import { Auth } from "svc-live";
 *
 * declare const storedHash: string; // from the app's own table
 * const matches = await Auth.verifyPassword("correct horse battery staple", storedHash);
 * if (matches.ok && matches.value) console.log("signed in");
 * ```
 */
export function verifyPassword(password: string, hash: string): Task<boolean> {
  const input = verifyInput(password, hash);
  return input.ok ? verifyOffThread(input.value.password, input.value.hash) : Promise.resolve(input);
}

/**
 * `hashPassword` on the calling thread: blocks it for the whole hash (about 0.2 s at the default
 * cost), so for scripts and tests, not for a server answering requests.
 *
 * @returns Ok with the bcrypt hash, or Err `invalid_argument` for a password that is not a string or is longer than 72 bytes
 *
 * @example
 * ```ts
 * import { Auth } from "svc-live";
 *
 * // A seed script: the admin's hash, written once.
 * const hash = Auth.hashPasswordSync("a long and unguessable phrase");
 * if (hash.ok) console.log(`INSERT INTO staff (login, password_hash) VALUES ('admin', '${hash.value}');`);
 * ```
 */
export function hashPasswordSync(password: string): Result<string> {
  return andThen(hashInput("hashPassword", password, DEFAULT_COST), (input) => ok(bcryptHash(input.password, input.cost)));
}

/**
 * `hashPasswordCost` on the calling thread (see {@link hashPasswordSync}).
 *
 * @param cost bcrypt's cost, 4 to 31 (each step doubles the time)
 *
 * @example
 * ```ts
 * import { Auth } from "svc-live";
 *
 * // A test fixture: cost 4 keeps the suite fast.
 * const fixture = Auth.hashPasswordCostSync("test-password", 4);
 * ```
 */
export function hashPasswordCostSync(password: string, cost: number): Result<string> {
  return andThen(hashInput("hashPasswordCost", password, cost), (input) => ok(bcryptHash(input.password, input.cost)));
}

/**
 * `verifyPassword` on the calling thread (see {@link hashPasswordSync}).
 *
 * @returns Ok(true) when the password matches, Ok(false) when not, Err for a malformed hash
 *
 * @example
 * ```ts
 * import { Auth } from "svc-live";
 *
 * const hash = Auth.hashPasswordCostSync("test-password", 4);
 * if (hash.ok) console.log(Auth.verifyPasswordSync("test-password", hash.value)); // { ok: true, value: true }
 * ```
 */
export function verifyPasswordSync(password: string, hash: string): Result<boolean> {
  return andThen(verifyInput(password, hash), (input) => ok(bcryptVerify(input.password, input.hash)));
}
