/**
 * Equal work for unknown and known emails at login (docs/auth.md#users-table).
 *
 * An unknown email still runs one bcrypt verify, against a fixed dummy hash, so a wrong password
 * and an unknown address take the same time. bcrypt's time depends only on the cost in the hash,
 * so the dummy is a fixed salt and digest under the cost the application says it hashes at (login's
 * `cost` option), from the very first request; without the option, under the cost this handle last
 * saw in a real hash (from register or from a stored row), the default cost 12 until then. Without
 * the option, a fresh handle of an app that hashes at 13 answers an unknown email about twice as
 * fast as a known one until its first real login (docs/security.md#login-timing).
 */
import type { Db } from "../db/db.ts";
import { DEFAULT_COST } from "./bcrypt.ts";

/** Salt and digest of a hash of a throwaway string: well-formed, matches no password in practice. */
const DUMMY_BODY = "5buO7LRL1QmmHF0DEK5qyes4XRUPmvJxKDBywgt6mHTF6/Mo3kTH.";

const costSeen = new WeakMap<Db, number>();

export function rememberCost(db: Db, costOrHash: number | string): void {
  const cost = typeof costOrHash === "number" ? costOrHash : Number(/^\$2[aby]\$(\d\d)\$/.exec(costOrHash)?.[1]);
  if (Number.isInteger(cost) && cost >= 4 && cost <= 31) costSeen.set(db, cost);
}

export function dummyHash(db: Db, configuredCost?: number): string {
  const cost = configuredCost ?? costSeen.get(db) ?? DEFAULT_COST;
  return `$2b$${String(cost).padStart(2, "0")}$${DUMMY_BODY}`;
}
