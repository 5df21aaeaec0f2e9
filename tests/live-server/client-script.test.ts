/**
 * The client script's caching (docs/protocol.md#the-client-script): the page names the bundle's
 * digest, that URL is cacheable for good, any URL revalidates to a 304 through the ETag.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { CLIENT_BUNDLE, CLIENT_BUNDLE_VERSION } from "../../src/generated/client-bundle.ts";
import { formAppPool } from "./apps.ts";

const freshApp = formAppPool(after);

/** The script URL a browser resolves from the page at `pageUrl`. */
async function scriptUrlOf(app: { fetch(req: Request): Response | Promise<Response> }, pageUrl: string): Promise<string> {
  const html = await (await app.fetch(new Request(pageUrl, { headers: { Accept: "text/html" } }))).text();
  const src = /<script type="module" src="([^"]+)">/.exec(html)![1]!.replaceAll("&amp;", "&");
  return new URL(src, pageUrl).href;
}

test("the page's script URL names the bundle's digest, and that URL is cached for good with its ETag", async () => {
  const app = freshApp();
  const url = await scriptUrlOf(app, "http://app.test/");
  assert.equal(new URL(url).searchParams.get("v"), CLIENT_BUNDLE_VERSION);
  const resp = await app.fetch(new Request(url));
  assert.equal(resp.status, 200);
  assert.equal(await resp.text(), CLIENT_BUNDLE);
  assert.equal(resp.headers.get("Cache-Control"), "public, max-age=31536000, immutable");
  assert.equal(resp.headers.get("ETag"), `"${CLIENT_BUNDLE_VERSION}"`);
});

test("the digest is the bundle's own: SHA-256 of it, so a changed bundle is a new URL", async () => {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(CLIENT_BUNDLE)));
  const hex = Array.from(digest.subarray(0, 8), (byte) => byte.toString(16).padStart(2, "0")).join("");
  assert.equal(CLIENT_BUNDLE_VERSION, hex);
});

test("a URL without the digest, or with another bundle's, is revalidated on each use, and a held bundle is a 304", async () => {
  const app = freshApp();
  for (
    const url of ["http://app.test/?_svc=client.js", "http://app.test/?_svc=client.js&v=0000000000000000", "http://app.test/_svc/client.js"]
  ) {
    const resp = await app.fetch(new Request(url));
    assert.equal(resp.status, 200, url);
    assert.equal(resp.headers.get("Cache-Control"), "no-cache", url);
    const etag = resp.headers.get("ETag")!;
    for (const held of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const again = await app.fetch(new Request(url, { headers: { "If-None-Match": held } }));
      assert.equal(again.status, 304, `${url} with ${held}`);
      assert.equal(await again.text(), "");
    }
    const stale = await app.fetch(new Request(url, { headers: { "If-None-Match": `"0000000000000000"` } }));
    assert.equal(stale.status, 200, "another bundle's ETag gets this bundle");
    assert.equal(await stale.text(), CLIENT_BUNDLE);
  }
});
