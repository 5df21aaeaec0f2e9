#!/usr/bin/env node
// The svc-live command line (src/cli/main.ts). On Node the TypeScript sources load through tsx's
// loader; Bun and Deno run them as they are.
const native = "Bun" in globalThis || "Deno" in globalThis;
const ready = native ? Promise.resolve() : import("tsx/esm/api").then((m) => m.register());

ready
  .then(() => import("../src/cli/main.ts"))
  .then((cli) => cli.main(process.argv.slice(2)))
  .then((code) => {
    process.exitCode = code;
  })
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
