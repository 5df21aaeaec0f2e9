#!/usr/bin/env bash
# The package as a user gets it: packs the tarball, checks its file list and that its Markdown
# links only to files it holds (check-packed-links.mjs), installs it into fresh
# projects outside the checkout and runs them under Node (no TypeScript loader, ESM and require()),
# an esbuild bundle, a strict TypeScript consumer (moduleResolution node16 and bundler), Bun and Deno (npm:
# specifiers); creates an app with `npx svc-live init` from the tarball and starts it with
# `npm start`, `bun run start` and `deno task start`; then the JSR and npm publish dry runs. It prints
# the consumer install size and the root's import time on Node, and fails when the install outgrows
# its bound; the README's figures (install size, import time, the guides' size, the browser
# client's sizes) are the ones measured here: figures.mjs rewrites them and fails the run when they
# differ beyond its stated tolerance, so the rewritten README.md is committed.
# Nothing is published. Peer dependencies come from the registry through npm.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/svc-live-package-XXXXXX")"
trap 'rm -rf "$work"' EXIT
bun="$repo/node_modules/.bin/bun"
deno=(npx --yes deno@2.9.6)
npm_quiet=(--no-audit --no-fund --loglevel=error)
step() { echo "== package: $*"; }

step "npm pack"
(cd "$repo" && npm pack --pack-destination "$work" --silent >/dev/null)
tarball="$(ls "$work"/svc-live-*.tgz)"
node "$here/check-tarball.mjs" "$tarball" "$here/expected-files.txt"
node "$here/check-packed-links.mjs" "$tarball"

step "manifests: package.json and jsr.json agree"
node "$here/check-manifests.mjs" "$repo"

# A project with the tarball and what a Node user adds for serving (@hono/node-server).
new_project() {
  local dir="$work/$1"
  mkdir -p "$dir"
  (cd "$dir" && npm init -y >/dev/null && npm pkg set type=module && npm install "${npm_quiet[@]}" "$tarball" "${@:2}") >&2
  echo "$dir"
}

step "Node: ESM and require() with no TypeScript loader"
node_app="$(new_project node @hono/node-server)"
cp "$here/smoke.mjs" "$here/smoke.cjs" "$node_app/"
(cd "$node_app" && node smoke.mjs && node smoke.cjs)
# The import cost of the root on Node: the median of 5 fresh processes, each timing its own import.
import_ms="$(cd "$node_app" && for _ in 1 2 3 4 5; do
  node --input-type=module -e 'const start = performance.now(); await import("svc-live"); console.log((performance.now() - start).toFixed(0))'
done | sort -n | sed -n 3p)"
install_kb="$(du -sk "$node_app/node_modules" | cut -f1)"
echo "install size: $install_kb KB with @hono/node-server ($(du -sk "$node_app/node_modules/@hono" | cut -f1) KB of it); import \"svc-live\" on Node: $import_ms ms (median of 5 processes)"
# The bound the install must stay under: a little above today's size, so a new dependency, or a file
# that should not ship, shows here.
max_install_kb=21800
# The README's figures, measured on the installed package (KB of 1,024 bytes; the clients gzipped
# and brotli'd at the levels the server precompresses them with).
installed="$node_app/node_modules/svc-live"
node --input-type=module -e '
  import { readFileSync, readdirSync, statSync } from "node:fs";
  import { brotliCompressSync, constants, gzipSync } from "node:zlib";
  const [dir, installKb, dictionariesKb, importMs, maxInstallKb] = process.argv.slice(1);
  const client = readFileSync(`${dir}/dist/client.js`);
  // The guides (docs/*.md) and the API reference (docs/reference/*.md).
  const mdBytes = (d) => readdirSync(d).filter((f) => f.endsWith(".md")).reduce((n, f) => n + statSync(`${d}/${f}`).size, 0);
  const docsBytes = mdBytes(`${dir}/docs`) + mdBytes(`${dir}/docs/reference`);
  const k = (bytes, digits) => Number((bytes / 1024).toFixed(digits));
  console.log(JSON.stringify({
    installKb: Number(installKb), dictionariesKb: Number(dictionariesKb), importMs: Number(importMs), maxInstallKb: Number(maxInstallKb),
    docsKb: k(docsBytes, 0), clientKb: k(client.length, 0), clientGzipKb: k(gzipSync(client).length, 1),
    clientBrotliKb: k(brotliCompressSync(client, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }).length, 1),
  }));
' "$installed" "$install_kb" "$(du -sk "$node_app/node_modules/@zxcvbn-ts" | cut -f1)" "$import_ms" "$max_install_kb" >"$work/figures.json"
cat "$work/figures.json"

step "a bundle (esbuild) with the password worker as a second entry"
cp "$here/bundle-smoke.mjs" "$node_app/"
(cd "$node_app" && "$repo/node_modules/.bin/esbuild" bundle-smoke.mjs node_modules/svc-live/dist/auth/password-worker.js \
  --bundle --platform=node --format=esm --outdir=bundle --entry-names='[name]' --log-level=warning && node bundle/bundle-smoke.js)

step "TypeScript consumer: tsc --noEmit, strict, moduleResolution node16 and bundler"
# In the Node project, with the repository's compiler (TypeScript 5.9) and no @types/node: the
# declarations must not lean on Node's types.
tsc="$repo/node_modules/typescript/bin/tsc"
cp "$here/consumer.ts" "$here/tsconfig.node16.json" "$here/tsconfig.bundler.json" "$node_app/"
(cd "$node_app" && node "$tsc" -p tsconfig.node16.json && node "$tsc" -p tsconfig.bundler.json && echo "ok   both configurations type-check")

step "Bun"
cp "$here/smoke.mjs" "$node_app/smoke-bun.mjs"
(cd "$node_app" && "$bun" smoke-bun.mjs)

step "Deno (npm: specifiers)"
deno_app="$work/deno"
mkdir -p "$deno_app" && cp -R "$node_app/node_modules" "$node_app/package.json" "$deno_app/"
echo '{ "nodeModulesDir": "manual" }' >"$deno_app/deno.json"
cp "$here/smoke.mjs" "$deno_app/"
(cd "$deno_app" && "${deno[@]}" run -A smoke.mjs)

step "npx svc-live init from the tarball; the app starts on Node, Bun and Deno"
(cd "$work" && npx --yes --package "$tarball" svc-live init my-app --svc "file:$tarball" >/dev/null)
(cd "$work/my-app" && npm install "${npm_quiet[@]}")
node "$here/start-app.mjs" "$work/my-app" Node npm start
node "$here/start-app.mjs" "$work/my-app" Bun "$bun" run start
node "$here/start-app.mjs" "$work/my-app" Deno "${deno[@]}" task start
# A Bun user installs with Bun. (deno install cannot take a file: tarball dependency, which a
# registry version does not need, so Deno runs on npm's install above.)
mkdir "$work/my-app-bun" && (cd "$work/my-app" && tar --exclude=node_modules -cf - .) | (cd "$work/my-app-bun" && tar -xf -)
(cd "$work/my-app-bun" && "$bun" install --silent)
node "$here/start-app.mjs" "$work/my-app-bun" Bun "$bun" run start
(cd "$work/my-app" && npx svc-live doctor app.ts | tee "$work/doctor.txt")
grep -q "gate: app: no session is bound to a user" "$work/doctor.txt" || { echo "doctor did not find the live app"; exit 1; }
(mkdir "$work/default" && cd "$work/default" && npx --yes --package "$tarball" svc-live init app >/dev/null)
node -e 'const v=require(process.argv[1]).dependencies["svc-live"]; if (v !== "^"+require(process.argv[2]).version) throw new Error("init from the package should depend on ^version, got "+v); console.log("ok   init from the package depends on", v)' "$work/default/app/package.json" "$repo/package.json"

step "publish dry runs (nothing is published)"
# The last line on success; everything on failure, so that CI shows why.
dry_run() {
  local out
  out="$(cd "$repo" && "$@" 2>&1)" || { printf '%s\n' "$out"; return 1; }
  printf '%s\n' "$out" | tail -1
}
dry_run "${deno[@]}" publish --dry-run --allow-dirty --config jsr.json
dry_run npm publish --dry-run --ignore-scripts "$tarball"
step "the consumer install stays under its bound"
if (( install_kb > max_install_kb )); then
  echo "the consumer install is $install_kb KB, over the bound of $max_install_kb KB"
  exit 1
fi
echo "ok   $install_kb KB <= $max_install_kb KB"
step "the README's figures are the measured ones"
node "$here/figures.mjs" "$repo/README.md" "$work/figures.json"
step "passed"
