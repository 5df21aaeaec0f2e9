/**
 * The browser clients compressed on the wire (docs/protocol.md#the-client-script): brotli where
 * the runtime has it, else gzip, when the request accepts it; an ETag per coding, a 304 when the
 * held coding is named, `Vary: Accept-Encoding` on every answer, and the bytes as they are when no
 * offered coding is accepted.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { brotliDecompressSync } from "node:zlib";
import { CLIENT_BUNDLE, CLIENT_BUNDLE_VERSION } from "../../src/generated/client-bundle.ts";
import { SPLIT_BUNDLE, SPLIT_BUNDLE_VERSION } from "../../src/generated/split-bundle.ts";
import { availableCodings } from "../../src/runtime/compress.ts";
import { chooseCoding, encodedBundle } from "../../src/live/server/http/client-encodings.ts";
import { formAppPool } from "./apps.ts";

const freshApp = formAppPool(after);

async function decoded(resp: Response): Promise<string> {
  const bytes = new Uint8Array(await resp.arrayBuffer());
  const coding = resp.headers.get("Content-Encoding");
  if (coding === "br") return new TextDecoder().decode(brotliDecompressSync(bytes));
  assert.equal(coding, "gzip");
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return await new Response(stream).text();
}

const bundles = [
  { path: "/_svc/client.js", text: CLIENT_BUNDLE, version: CLIENT_BUNDLE_VERSION },
  { path: "/_svc/split.js", text: SPLIT_BUNDLE, version: SPLIT_BUNDLE_VERSION },
  { path: "/?_svc=client.js", text: CLIENT_BUNDLE, version: CLIENT_BUNDLE_VERSION },
  { path: "/any/page?_svc=split.js", text: SPLIT_BUNDLE, version: SPLIT_BUNDLE_VERSION },
];

test("Node, Bun and Deno all offer brotli and gzip", () => {
  assert.deepEqual(availableCodings(), ["br", "gzip"]);
});

for (const { path, text, version } of bundles) {
  for (const [accept, coding] of [["gzip", "gzip"], ["gzip, deflate, br, zstd", "br"], ["br;q=0.5, gzip", "gzip"], ["*", "br"]] as const) {
    test(`${path} with Accept-Encoding "${accept}" is sent as ${coding}, decodes to the bundle, and revalidates to a 304`, async () => {
      const app = freshApp();
      const resp = await app.fetch(new Request(`http://app.test${path}`, { headers: { "Accept-Encoding": accept } }));
      assert.equal(resp.status, 200);
      assert.equal(resp.headers.get("Content-Encoding"), coding);
      assert.equal(resp.headers.get("Vary"), "Accept-Encoding");
      const etag = resp.headers.get("ETag");
      assert.equal(etag, `"${version}-${coding}"`);
      assert.ok(Number(resp.headers.get("Content-Length")) < text.length / 2, "at most half the bundle's size");
      assert.equal(await decoded(resp), text);

      const again = await app.fetch(
        new Request(`http://app.test${path}`, { headers: { "Accept-Encoding": accept, "If-None-Match": etag! } }),
      );
      assert.equal(again.status, 304);
      assert.equal(again.headers.get("ETag"), etag);
      assert.equal(again.headers.get("Vary"), "Accept-Encoding");
      assert.equal(await again.text(), "");

      const otherCoding = await app.fetch(
        new Request(`http://app.test${path}`, { headers: { "Accept-Encoding": accept, "If-None-Match": `"${version}"` } }),
      );
      assert.equal(otherCoding.status, 200, "the identity ETag does not revalidate a compressed answer");
      assert.equal(await decoded(otherCoding), text);
    });
  }

  test(`${path} goes out as it is when no offered coding is accepted`, async () => {
    const app = freshApp();
    for (
      const headers of [{} as Record<string, string>, { "Accept-Encoding": "identity" }, { "Accept-Encoding": "gzip;q=0, br;q=0" }, {
        "Accept-Encoding": "deflate",
      }]
    ) {
      const resp = await app.fetch(new Request(`http://app.test${path}`, { headers }));
      const label = JSON.stringify(headers);
      assert.equal(resp.status, 200, label);
      assert.equal(resp.headers.get("Content-Encoding"), null, label);
      assert.equal(resp.headers.get("Vary"), "Accept-Encoding", label);
      assert.equal(resp.headers.get("ETag"), `"${version}"`, label);
      assert.equal(await resp.text(), text, label);
    }
  });
}

test("the coding chosen is the best accepted, by weight, brotli first on a tie", () => {
  assert.equal(chooseCoding(null), undefined);
  assert.equal(chooseCoding(""), undefined);
  assert.equal(chooseCoding("gzip, br"), "br");
  assert.equal(chooseCoding("GZIP"), "gzip");
  assert.equal(chooseCoding("x-gzip"), "gzip");
  assert.equal(chooseCoding("br;q=0.1, gzip;q=0.9"), "gzip");
  assert.equal(chooseCoding("*;q=0.5, br;q=0"), "gzip");
  assert.equal(chooseCoding("*;q=0"), undefined);
});

test("each coding of a bundle is compressed once per process and then shared", async () => {
  const first = encodedBundle(CLIENT_BUNDLE, CLIENT_BUNDLE_VERSION, "gzip");
  assert.equal(encodedBundle(CLIENT_BUNDLE, CLIENT_BUNDLE_VERSION, "gzip"), first);
  assert.notEqual(encodedBundle(CLIENT_BUNDLE, CLIENT_BUNDLE_VERSION, "br"), first);
  assert.equal(await first, await encodedBundle(CLIENT_BUNDLE, CLIENT_BUNDLE_VERSION, "gzip"));
});
