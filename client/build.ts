/**
 * Builds the browser clients: bundles each entry (and the wire modules it imports) into one
 * minified ES module and writes it into a module of src/generated/ as a string the live handler
 * serves: the live client (client/main.ts) as CLIENT_BUNDLE in client-bundle.ts, served at
 * <base>/_svc/client.js, and the split client (client/split/main.ts) as SPLIT_BUNDLE in
 * split-bundle.ts, served at <base>/_svc/split.js (docs/protocol.md#the-split-client). Prints the
 * raw, minified and gzipped sizes of each; the build fails when one is over its gzipped limit.
 *
 *   tsx client/build.ts            write the bundles
 *   tsx client/build.ts --check    fail when a written bundle is out of date
 *
 * Each module also holds the bundle's digest (CLIENT_BUNDLE_VERSION, SPLIT_BUNDLE_VERSION): the
 * page names it in the script's URL, so a browser may keep the script for good and a new bundle is
 * a new URL.
 *
 * Like the rest of client/, it uses no platform module: esbuild writes the files, the gzip size
 * comes from the Web-standard CompressionStream and the digest from Web Crypto.
 */
import { build } from "esbuild";

const root = new URL("..", import.meta.url).pathname;

/** One client: its entry, the module it is written into, the names of its string and digest, its size limit. */
type Target = { name: string; entry: string; module: string; bundle: string; version: string; limitGzip: number; doc: string };

export const TARGETS: readonly Target[] = [
  {
    name: "live client",
    entry: "client/main.ts",
    module: "src/generated/client-bundle.ts",
    bundle: "CLIENT_BUNDLE",
    version: "CLIENT_BUNDLE_VERSION",
    limitGzip: 11 * 1024,
    doc: "The browser client, bundled from client/ into one ES module (npm run build:client writes this\n" +
      " * file; do not edit by hand). Served at <base>/_svc/client.js; CLIENT_BUNDLE_VERSION is its digest.",
  },
  {
    name: "split client",
    entry: "client/split/main.ts",
    module: "src/generated/split-bundle.ts",
    bundle: "SPLIT_BUNDLE",
    version: "SPLIT_BUNDLE_VERSION",
    limitGzip: 14 * 1024,
    doc: "The split browser client, bundled from client/split/ and client/ into one ES module (npm run\n" +
      " * build:client writes this file; do not edit by hand). Served at <base>/_svc/split.js;\n" +
      " * SPLIT_BUNDLE_VERSION is its digest.",
  },
];

/** One entry bundled as an ES module for the browser. */
export async function bundle(entry: string, { minify }: { minify: boolean }): Promise<string> {
  const result = await build({
    entryPoints: [`${root}${entry}`],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: ["es2022"],
    minify,
    legalComments: "none",
    write: false,
  });
  return (result.outputFiles[0] as { text: string }).text.trimEnd();
}

/** The bundle's version: the first 16 hex digits of its SHA-256. */
async function versionOf(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(digest.subarray(0, 8), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The gzipped size of a text, in bytes. */
export async function gzipSize(text: string): Promise<number> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

/** Builds one client; `check`: compare with the written module instead of writing it. */
async function buildTarget(target: Target, { check }: { check: boolean }): Promise<void> {
  const raw = await bundle(target.entry, { minify: false });
  const min = await bundle(target.entry, { minify: true });
  const gzip = await gzipSize(min);
  const version = await versionOf(min);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(
    `${target.name} bundle: raw ${kb(raw.length)}, minified ${kb(min.length)}, minified+gzip ${kb(gzip)} (${gzip} bytes; limit ${
      kb(target.limitGzip)
    })`,
  );
  if (gzip > target.limitGzip) throw new Error(`the ${target.name} bundle is over its size limit`);
  if (check) {
    const written = (await import(`${root}${target.module}`)) as Record<string, string>;
    if (written[target.bundle] !== min || written[target.version] !== version) {
      throw new Error(`${target.module} is out of date: run npm run build:client`);
    }
    console.log(`${target.module} is up to date`);
    return;
  }
  // esbuild prints the module verbatim after the banner; the string keeps the bundle byte for byte.
  await build({
    stdin: {
      contents: `export const ${target.bundle} = ${JSON.stringify(min)};\nexport const ${target.version} = ${JSON.stringify(version)};\n`,
      loader: "ts",
    },
    outfile: `${root}${target.module}`,
    format: "esm",
    banner: { js: `/**\n * ${target.doc}\n */` },
    legalComments: "none",
    logLevel: "warning",
    allowOverwrite: true,
  });
  console.log(`wrote ${target.module}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const target of TARGETS) await buildTarget(target, { check: process.argv.includes("--check") });
}
