#!/usr/bin/env node
// The svc-live command line (src/cli/main.ts). An installed package runs its built dist/; a
// checkout of the repository (the only place with a tsconfig.json, which the package does not
// ship) runs the TypeScript sources, so it never runs a stale build.
// On Node a TypeScript loader is needed for the sources and for the app module `doctor` imports:
// tsx, from the project the command runs in or from this checkout. Bun and Deno run TypeScript
// as it is.
import { existsSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";

const native = "Bun" in globalThis || "Deno" in globalThis;
const packageDir = realpathSync(fileURLToPath(new URL("..", import.meta.url)));
const installed = packageDir.split(/[\\/]/).includes("node_modules") || !existsSync(join(packageDir, "tsconfig.json"));

async function registerTypeScript() {
  for (const base of [join(process.cwd(), "noop.js"), join(packageDir, "noop.js")]) {
    let loader;
    try {
      // tsx's main export is the module `node --import tsx` loads: importing it registers tsx.
      loader = createRequire(base).resolve("tsx");
    } catch {
      continue;
    }
    await import(pathToFileURL(loader).href);
    return;
  }
}

async function run() {
  if (!native) await registerTypeScript();
  const cli = installed ? await import("../dist/cli/main.js") : await import("../src/cli/main.ts");
  // Exit, not just set the code: a module `doctor` imported may hold timers or sockets open.
  process.exit(await cli.main(process.argv.slice(2)));
}

run().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
