/**
 * Builds the browser client: bundles client/main.ts (and the wire modules it imports) into one
 * minified ES module and writes it into src/generated/client-bundle.ts as the CLIENT_BUNDLE
 * string the live handler serves at <base>/_svc/client.js. Prints the raw, minified and gzipped
 * sizes; the target is at most 10 KB gzipped, and the build fails above it.
 *
 *   tsx client/build.ts            write the bundle
 *   tsx client/build.ts --check    fail when the written bundle is out of date
 *
 * It also writes CLIENT_BUNDLE_VERSION, a digest of the bundle: the page names it in the script's
 * URL, so a browser may keep the script for good and a new bundle is a new URL.
 *
 * Like the rest of client/, it uses no platform module: esbuild writes the file, the gzip size
 * comes from the Web-standard CompressionStream and the digest from Web Crypto.
 */
import { build } from "esbuild";

const root = new URL("..", import.meta.url).pathname;
const target = `${root}src/generated/client-bundle.ts`;
const LIMIT_GZIP = 10 * 1024;
const DOC = "/**\n" +
  " * The browser client, bundled from client/ into one ES module (npm run build:client writes this\n" +
  " * file; do not edit by hand). Served at <base>/_svc/client.js; CLIENT_BUNDLE_VERSION is its digest.\n" +
  " */";

async function bundle(minify: boolean): Promise<string> {
  const result = await build({
    entryPoints: [`${root}client/main.ts`],
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

async function gzipSize(text: string): Promise<number> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

const raw = await bundle(false);
const min = await bundle(true);
const gzip = await gzipSize(min);
const version = await versionOf(min);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log(
  `client bundle: raw ${kb(raw.length)}, minified ${kb(min.length)}, minified+gzip ${kb(gzip)} (${gzip} bytes; limit ${kb(LIMIT_GZIP)})`,
);
if (gzip > LIMIT_GZIP) throw new Error("the client bundle is over its size limit");

if (process.argv.includes("--check")) {
  const written = await import("../src/generated/client-bundle.ts");
  if (written.CLIENT_BUNDLE !== min || written.CLIENT_BUNDLE_VERSION !== version) {
    throw new Error("src/generated/client-bundle.ts is out of date: run npm run build:client");
  }
  console.log("src/generated/client-bundle.ts is up to date");
} else {
  // esbuild prints the module verbatim after the banner; the string keeps the bundle byte for byte.
  await build({
    stdin: {
      contents: `export const CLIENT_BUNDLE = ${JSON.stringify(min)};\nexport const CLIENT_BUNDLE_VERSION = ${JSON.stringify(version)};\n`,
      loader: "ts",
    },
    outfile: target,
    format: "esm",
    banner: { js: DOC },
    legalComments: "none",
    logLevel: "warning",
    allowOverwrite: true,
  });
  console.log("wrote src/generated/client-bundle.ts");
}
