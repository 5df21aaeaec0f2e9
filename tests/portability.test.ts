import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

// CONTRIBUTING.md#conventions: only src/runtime/ may touch node:*, Bun.* or Deno.*; src/ and client/
// elsewhere use Web-standard APIs, so the library runs unchanged on any fetch host.
const root = new URL("..", import.meta.url).pathname;
const platformReference = /(["'`]node:[a-z_/]+["'`])|\bBun\.|\bDeno\./;

function sourceFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|js|mjs)$/.test(name) ? [path] : [];
  });
}

test("no file in src/ outside src/runtime/, nor in client/, names node:, Bun. or Deno.", () => {
  const offenders: string[] = [];
  for (const file of [...sourceFiles(join(root, "src")), ...sourceFiles(join(root, "client"))]) {
    const path = relative(root, file);
    if (path.startsWith(join("src", "runtime"))) continue;
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, index) => {
        if (platformReference.test(line)) offenders.push(`${path}:${index + 1}: ${line.trim()}`);
      });
  }
  assert.deepEqual(offenders, []);
});

test("the portability check itself recognises each kind of platform reference", () => {
  for (const line of [`import { x } from "node:fs";`, `await import('node:crypto')`, `Bun.password.hash(p)`, `Deno.env.get("X")`]) {
    assert.ok(platformReference.test(line), line);
  }
  for (const line of [`const node = tree.node;`, `// a Bun runtime`, `crypto.subtle`]) {
    assert.ok(!platformReference.test(line), line);
  }
});
