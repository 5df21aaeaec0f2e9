// The resend queue against the real server in process (docs/protocol.md#resend): the network in
// between loses, at random, requests before they reach the app (a proxy's 502, a connection
// refused) and replies after the app has applied them (the replica died before answering). Every
// click and every keystroke is applied exactly once; the random seed is printed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Window } from "happy-dom";
import { LiveClient } from "../../client/client.ts";
import { listen } from "../../client/events.ts";
import { cookieHeader } from "../support/live-harness.ts";
import { demoApp } from "../support/demo-app.ts";
import { seeded } from "../support/seeded.ts";
import { sleep } from "./support.ts";

const ORIGIN = "http://app.test";
const seed = Number(process.env["RESEND_SEED"] ?? Date.now() % 2 ** 31);
console.log(`resend-app: random seed ${seed} (RESEND_SEED=${seed} to replay)`);

test("clicks and keystrokes through a network that drops requests and replies are each applied once", async () => {
  const random = seeded(seed);
  const demo = demoApp();
  let cookies = "";
  let calls = 0;
  const call = async (url: string, init: RequestInit = {}) => {
    calls++;
    try {
      const headers = new Headers(init.headers);
      if (cookies) headers.set("Cookie", cookies);
      const resp = await demo.live.fetch(new Request(ORIGIN + url, { ...init, headers }));
      cookies = cookieHeader(resp, cookies);
      return resp;
    } finally {
      calls--;
    }
  };
  const html = await (await call("/")).text();
  const meta = (name: string) => new RegExp(`<meta name="${name}" content="([^"]*)">`).exec(html)?.[1] ?? "";
  const win = new Window({ url: `${ORIGIN}/` });
  const doc = win.document as unknown as Document;
  doc.body.innerHTML = /<body>([\s\S]*)<\/body>/.exec(html)?.[1] ?? "";
  const lost = { before: 0, after: 0 };
  const client = new LiveClient(
    {
      doc,
      fetch: async (url, init) => {
        if (!url.endsWith("/_svc/event")) return call(url, init);
        const roll = random();
        if (roll < 0.2) {
          lost.before++;
          return new Response("bad gateway", { status: 502 });
        }
        const resp = await call(url, init);
        if (roll < 0.4) {
          lost.after++;
          throw new TypeError("connection reset"); // applied, and its reply never arrives
        }
        return resp;
      },
      reload: () => assert.fail("unexpected reload"),
      log: () => {},
      FormData: win.FormData as unknown as typeof FormData,
    },
    { csrf: meta("svc-csrf"), seq: Number(meta("svc-seq")), base: meta("svc-base"), sessionId: meta("svc-session") },
    { debounceMs: 5, retryMs: 2, retryCapMs: 20, gapMs: 30 },
  );
  const detach = listen(client, win as unknown as Parameters<typeof listen>[1]);
  const title = doc.getElementById("title") as unknown as HTMLInputElement;
  const inc = doc.getElementById("inc") as unknown as HTMLElement;
  let clicks = 0;
  let typed = "";
  title.focus();
  for (let i = 0; i < 120; i++) {
    if (random() < 0.3) {
      inc.click();
      clicks++;
    } else {
      const ch = "abcdefghij klmnop"[Math.floor(random() * 17)]!;
      title.value += ch;
      typed += ch;
      title.dispatchEvent(new win.InputEvent("input", { bubbles: true }) as unknown as Event);
    }
    if (random() < 0.2) await sleep(random() * 8);
  }
  title.blur();
  // Settled: nothing queued, in flight, dirty or held, and no request (a resync's render) on its
  // way, for longer than a gap takes to resync.
  for (let quiet = 0, i = 0; quiet < 8 && i < 1000; i++) {
    await sleep(10);
    const dirty = [...client.inputs.entries.values()].some((e) => client.inputs.dirty(e));
    const idle = client.queue.length === 0 && !client.sends.flying && !dirty && client.order.waiting === 0 && calls === 0;
    quiet = idle ? quiet + 1 : 0;
  }
  const model = demo.model();
  console.log(`# resend-app: ${clicks} clicks, ${typed.length} characters; lost ${lost.before} requests and ${lost.after} replies`);
  assert.ok(lost.before > 0 && lost.after > 0, "the network lost both kinds");
  assert.equal(model.count, clicks, "every click applied once");
  assert.equal(model.title, typed.toUpperCase(), "every character, once, in order");
  assert.equal(title.value, typed.toUpperCase());
  assert.equal(demo.received.filter(([msg]) => msg === "Inc").length, clicks, "no click reached the update twice");
  detach();
  client.close();
  client.recovery.halted = true; // a late gap timer must not resync against the closed app
  demo.live.close();
  await win.happyDOM.close();
});
