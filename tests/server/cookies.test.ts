import { test } from "node:test";
import assert from "node:assert/strict";
import { Server } from "../../src/server/mod.ts";
import fc from "fast-check";
import { cookieIn, decodeCookieValue } from "../../src/server/cookies.ts";

// One seed for this file's properties, printed so that a failing run can be replayed.
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
console.log(`fast-check seed ${seed} (FC_SEED=${seed} to replay)`);

test("withCookie passes the attribute string through verbatim", () => {
  const resp = Server.withCookie("theme", "dark", "Path=/app; Max-Age=60; SameSite=Strict", new Response("ok"));
  assert.deepEqual(resp.headers.getSetCookie(), ["theme=dark; Path=/app; Max-Age=60; SameSite=Strict"]);
  const bare = Server.withCookie("a", "b", "", new Response("ok"));
  assert.deepEqual(bare.headers.getSetCookie(), ["a=b"]);
});

test("addCookie gives Path=/; HttpOnly; SameSite=Lax, and several cookies stay separate headers", () => {
  let resp = Server.addCookie(Server.cookie("session", "abc"), new Response("ok"));
  resp = Server.addCookie(Server.cookie("other", "x"), resp);
  assert.deepEqual(resp.headers.getSetCookie(), ["session=abc; Path=/; HttpOnly; SameSite=Lax", "other=x; Path=/; HttpOnly; SameSite=Lax"]);
});

test("a cookie value cannot inject attributes or headers, and reads back unchanged", () => {
  const hostile = 'x; Domain=evil.example; Secure\r\nSet-Cookie: admin=1, y="z" é';
  const resp = Server.withCookie("v", hostile, "Path=/", new Response("ok"));
  const [line] = resp.headers.getSetCookie();
  assert.equal(line!.split(";").length, 2, line);
  assert.ok(!/[\s,"]/.test(line!.slice(0, line!.indexOf(";"))), line);
  const cookieHeader = line!.slice(0, line!.indexOf(";"));
  assert.equal(Server.getCookie("v", new Request("http://x/", { headers: { Cookie: `other=1; ${cookieHeader}` } })), hostile);
});

test("an invalid cookie name is a programming error and throws at the call", () => {
  for (const name of ["", "a b", "a;b", "a=b", "é"]) assert.throws(() => Server.cookie(name, "v"), TypeError);
});

test("getCookie returns undefined when absent and the first value when repeated", () => {
  const req = new Request("http://x/", { headers: { Cookie: "a=1; b=two%20words; a=3; broken; =x" } });
  assert.equal(Server.getCookie("a", req), "1");
  assert.equal(Server.getCookie("b", req), "two words");
  assert.equal(Server.getCookie("c", req), undefined);
  assert.equal(Server.getCookie("a", new Request("http://x/")), undefined);
});

test("formValue reads a urlencoded or multipart body once, however many fields are asked for; absent is empty", async () => {
  const urlencoded = new Request("http://x/", { method: "POST", body: new URLSearchParams({ email: "a@b.c", password: "p w&=" }) });
  assert.equal(await Server.formValue("email", urlencoded), "a@b.c");
  assert.equal(await Server.formValue("password", urlencoded), "p w&=");
  assert.equal(await Server.formValue("missing", urlencoded), "");
  assert.equal(urlencoded.bodyUsed, true);
  const form = new FormData();
  form.set("email", "m@n.o");
  const multipart = new Request("http://x/", { method: "POST", body: form });
  assert.equal(await Server.formValue("email", multipart), "m@n.o");
  assert.equal(await Server.formValue("password", multipart), "");
  assert.equal(await Server.formValue("email", new Request("http://x/")), "");
});

test("text, json and withStatus build the responses the spec names", async () => {
  const t = Server.text("hello", 400);
  assert.equal(t.status, 400);
  assert.match(t.headers.get("Content-Type")!, /^text\/plain/);
  assert.equal(await t.text(), "hello");
  const j = Server.json({ id: 3 });
  assert.equal(j.headers.get("Content-Type"), "application/json");
  assert.deepEqual(await j.json(), { id: 3 });
  const s = Server.withStatus(201, Server.addCookie(Server.cookie("a", "b"), Server.text("made")));
  assert.equal(s.status, 201);
  assert.equal(await s.text(), "made");
  assert.equal(s.headers.getSetCookie().length, 1);
});

test("cookies can be added to a response whose headers are immutable", async () => {
  const immutable = Response.redirect("http://x/elsewhere", 302);
  const resp = Server.withCookie("a", "b", "Path=/", immutable);
  assert.equal(resp.status, 302);
  assert.equal(resp.headers.get("Location"), "http://x/elsewhere");
  assert.deepEqual(resp.headers.getSetCookie(), ["a=b; Path=/"]);
});

/** The plain reading of RFC 6265 §5.4 the in-place scan must agree with: split, trim, first name wins. */
function parseCookieHeader(header: string): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=");
    if (eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    if (name !== "" && !cookies.has(name)) cookies.set(name, decodeCookieValue(pair.slice(eq + 1).trim()));
  }
  return cookies;
}

test("reading one cookie in place agrees with parsing the whole header, for any header", () => {
  const piece = fc.constantFrom("a", "svc_sid", "__svc_csrf", "=", ";", " ", "\t", "\u00a0", "\ufeff", "%41", "%zz", "x y", "==", "; ");
  const names = ["a", "svc_sid", "__svc_csrf", "b"];
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
      const header = pieces.join("");
      const all = parseCookieHeader(header);
      for (const name of names) assert.equal(cookieIn(header, name), all.get(name), JSON.stringify({ header, name }));
    }),
    { seed, numRuns: 2000 },
  );
});

test("reading a cookie with a fallback name in one scan agrees with reading the two names one after the other, for any header", () => {
  const piece = fc.constantFrom(
    "a",
    "__Host-a",
    "svc_sid",
    "__Host-svc_sid",
    "=",
    ";",
    " ",
    "\t",
    "\u00a0",
    "%41",
    "%zz",
    "==",
    "; ",
    "=x",
  );
  const names = ["a", "__Host-a", "svc_sid", "__Host-svc_sid", "b", ""];
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
      const header = pieces.join("");
      const all = parseCookieHeader(header);
      for (const name of names) {
        for (const fallback of names) {
          const expected = name === ""
            ? (fallback === "" ? undefined : all.get(fallback))
            : all.get(name) ?? (fallback === "" ? undefined : all.get(fallback));
          assert.equal(cookieIn(header, name, fallback), expected, JSON.stringify({ header, name, fallback }));
          assert.equal(cookieIn(header, name, fallback), cookieIn(header, name) ?? cookieIn(header, fallback));
        }
      }
    }),
    { seed, numRuns: 2000 },
  );
  assert.equal(cookieIn(null, "a", "b"), undefined);
  assert.equal(cookieIn("__Host-a=; a=1", "__Host-a", "a"), "", "an empty first spelling is still the one read");
});
