/**
 * Login timing on a fresh database handle (docs/security.md#login-timing): with login's cost
 * option, an unknown email costs what a known one does from the first request, before the handle
 * has seen any real hash. Run against every target whose handles share one database (SQLite in a
 * file, and Postgres when SVC_TEST_POSTGRES_URL is set). Costs 12 and 13 are measured by
 * bench/login-timing.bench.ts.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { Auth } from "../../src/auth/mod.ts";
import type { Db } from "../../src/db/mod.ts";
import { targets } from "../support/db-targets.ts";

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
let counter = 0;
const freshEmail = (tag: string) => `${tag}.${Date.now().toString(36)}.${++counter}@example.com`;

async function timed(login: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await login();
  return performance.now() - start;
}

for (const target of targets().filter((t) => t.shared)) {
  describe(`login timing on a fresh ${target.name} handle`, { skip: target.skip }, () => {
    const handles: Db[] = [];
    const open = () => {
      const db = target.open();
      handles.push(db);
      return db;
    };
    before(() => target.setup());
    after(async () => {
      for (const db of handles) await db.close();
      await target.teardown();
      Auth.closePasswordWorkers();
    });

    for (const cost of [10, 11]) {
      test(`at cost ${cost}, an unknown email takes as long as a known one (medians within 25 %) on a handle that has never seen a hash`, async () => {
        const email = freshEmail(`known${cost}`);
        assert.ok((await Auth.register(open(), email, "right", { cost })).ok);
        // Two fresh handles: one only ever asked about unknown emails, so it never sees a real hash.
        const known = open();
        const unknown = open();
        const knownLogin = () => Auth.login(known, email, "wrong", { cost });
        const unknownLogin = () => Auth.login(unknown, freshEmail("nobody"), "wrong", { cost });
        const first = await Auth.login(unknown, freshEmail("first"), "wrong", { cost });
        assert.equal(!first.ok && first.error.code, "bad_credentials");
        await timed(knownLogin);
        // Up to three rounds, because the machine may be shared: a dummy at another cost (2x or
        // 4x the time) fails every round, while a burst of load from elsewhere fails one at most.
        const rounds: string[] = [];
        for (let round = 0; round < 3; round++) {
          const [k, u]: [number[], number[]] = [[], []];
          // ABBA order, so drift and order effects fall on both series alike.
          for (let i = 0; i < 8; i++) {
            if (i % 2 === 0) {
              k.push(await timed(knownLogin));
              u.push(await timed(unknownLogin));
            } else {
              u.push(await timed(unknownLogin));
              k.push(await timed(knownLogin));
            }
          }
          const [a, b] = [median(k), median(u)];
          rounds.push(`known ${a.toFixed(1)} ms, unknown ${b.toFixed(1)} ms`);
          if (Math.abs(a - b) / Math.max(a, b) < 0.25) {
            console.log(`cost ${cost}, ${target.name}: ${rounds.at(-1)}`);
            return;
          }
        }
        assert.fail(rounds.join("; "));
      });
    }

    test("a cost option outside 4..31 is refused with bad_cost before any query", async () => {
      for (const cost of [3, 32, 10.5, Number.NaN]) {
        const result = await Auth.login(open(), "someone@example.com", "pw", { cost });
        assert.equal(!result.ok && result.error.code, "bad_cost", String(cost));
      }
    });
  });
}
