// The type tests of typed messages (tests/types/messages.ts, tests/types/registered/) under both
// checkers users run: tsc, and deno check (docs/live-apps.md#typed-messages). Each file must
// compile, which also proves that each of its expected errors is still an error. The TSX file
// declares its messages for a whole program, so it is checked as a program of its own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const run = (command: string, args: string[]) => spawnSync(command, args, { cwd: REPO, encoding: "utf8", timeout: 300_000 });

test("tsc: the program with declared TSX messages compiles, each expected error still an error", () => {
  const result = run("node", [`${REPO}node_modules/typescript/bin/tsc`, "--noEmit", "-p", "tests/types/registered"]);
  assert.equal(result.status, 0, result.stdout + result.stderr);
});

test("deno check: typed and untyped apps, and the program with declared TSX messages, compile as expected", () => {
  for (const file of ["tests/types/messages.ts", "tests/types/registered/jsx-messages.tsx"]) {
    const result = run("npx", ["--yes", "deno@2.9.6", "check", "--quiet", file]);
    assert.equal(result.status, 0, `${file}\n${result.stdout}${result.stderr}`);
  }
});
