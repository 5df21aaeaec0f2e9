// Mistakes that must not compile, under both checkers users run: tsc, and deno check
// (docs/live-apps.md#typed-messages). Each file in tests/types/fails/ must fail on the line marked
// "fails here" and nowhere else, with an error that holds each of its "// expect:" lines, and no
// error may show a type's internal name: what the user reads names their own messages.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const FAILS = join(REPO, "tests/types/fails");
// A checker over the fixtures takes a minute or more on a loaded machine: past a runner's default limit.
const run = (command: string, args: string[]) =>
  spawnSync(command, args, { cwd: REPO, encoding: "utf8", timeout: 300_000, env: { ...process.env, NO_COLOR: "1" } });

/** The names of the library's own helper types, which an error about an app's messages must not show. */
const INTERNAL_NAMES =
  /\b(HandlerForm|HandlerArgs|ClickMessage|ValueMessage|SubmitMessage|KeyMessage|MessageMark|MessageName|IsUntyped|Unhandled|UpdateCall|RunningDefinition)\b/;

type Fixture = { readonly file: string; readonly line: number; readonly expected: readonly string[] };
type Reported = { readonly file: string; readonly line: number; readonly text: string };

const fixtures: readonly Fixture[] = readdirSync(FAILS)
  .filter((name) => /\.tsx?$/.test(name))
  .map((name) => {
    const lines = readFileSync(join(FAILS, name), "utf8").split("\n");
    const marked = lines.flatMap((line, i) => (/\/\/ fails here|\{\/\* fails here \*\/\}/.test(line) ? [i + 1] : []));
    assert.equal(marked.length, 1, `${name} marks exactly one line "fails here"`);
    const expected = lines.flatMap((line) => /^\/\/ expect: (.+)$/.exec(line)?.[1] ?? []);
    assert.ok(expected.length > 0, `${name} names the error it must fail with`);
    return { file: name, line: marked[0]!, expected };
  });

function check(checker: string, reported: readonly Reported[]): void {
  assert.ok(fixtures.length >= 5, `${fixtures.length} fixtures`);
  for (const fixture of fixtures) {
    const mine = reported.filter((error) => error.file === fixture.file);
    assert.ok(mine.length > 0, `${checker}: ${fixture.file} compiled, but must fail with: ${fixture.expected.join(" / ")}`);
    for (const error of mine) {
      assert.equal(
        error.line,
        fixture.line,
        `${checker}: ${fixture.file} fails on line ${fixture.line} only, not ${error.line}: ${error.text}`,
      );
      assert.doesNotMatch(error.text, INTERNAL_NAMES, `${checker}: ${fixture.file}'s error shows an internal type's name`);
    }
    const text = mine.map((error) => error.text).join("\n");
    for (const expected of fixture.expected) {
      assert.ok(text.includes(expected), `${checker}: ${fixture.file}'s error says ${JSON.stringify(expected)}; it said:\n${text}`);
    }
  }
}

test("tsc: each file of tests/types/fails fails on its marked line, with the error it names", { timeout: 300_000 }, () => {
  const result = run("node", [`${REPO}node_modules/typescript/bin/tsc`, "--noEmit", "--pretty", "false", "-p", "tests/types/fails"]);
  assert.notEqual(result.status, 0, "the fixtures must not compile");
  // `path(line,col): error TSnnnn: message`, continued on indented lines.
  const reported: Reported[] = [];
  for (const line of result.stdout.split("\n")) {
    const start = /^tests\/types\/fails\/([^(]+)\((\d+),\d+\): error (TS\d+: .*)$/.exec(line);
    if (start !== null) reported.push({ file: start[1]!, line: Number(start[2]), text: start[3]! });
    else if (/^\s/.test(line) && reported.length > 0) {
      const last = reported.pop()!;
      reported.push({ ...last, text: `${last.text}\n${line.trim()}` });
    } else if (line.trim() !== "") assert.fail(`tsc reported an error outside the fixtures: ${line}`);
  }
  check("tsc", reported);
});

test("deno check: each file of tests/types/fails fails on its marked line, with the error it names", { timeout: 300_000 }, () => {
  const files = fixtures.map((fixture) => `tests/types/fails/${fixture.file}`);
  const result = run("npx", ["--yes", "deno@2.9.6", "check", "--quiet", ...files]);
  assert.notEqual(result.status, 0, "the fixtures must not compile");
  // `TSnnnn [ERROR]: message`, the code, then `at file:///…/fails/name.ts:line:col`.
  const reported: Reported[] = [];
  for (const block of result.stderr.split(/\n(?=TS\d+ \[ERROR\]: )/)) {
    const head = /^TS\d+ \[ERROR\]: ([\s\S]*?)\n\s+at file:\/\/\S*?\/tests\/types\/fails\/([^:]+):(\d+):\d+/.exec(block.trim());
    if (head === null) {
      assert.doesNotMatch(block, /\[ERROR\]/, `deno check reported an error outside the fixtures: ${block}`);
      continue;
    }
    reported.push({ file: head[2]!, line: Number(head[3]), text: head[1]! });
  }
  check("deno check", reported);
});

test("the to-do row that must not compile is the README's, one message misspelt", () => {
  const row = readFileSync(join(FAILS, "readme-todo-row.ts"), "utf8");
  const quoted = row.slice(row.indexOf("// The view builders"), row.indexOf(" // fails here"))
    .replace('["Remvoe", t.id]', '["Remove", t.id]')
    .replace("export const todoRow", "const todoRow");
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  assert.ok(readme.includes(quoted), `README.md's to-do app holds, as printed:\n${quoted}`);
});
