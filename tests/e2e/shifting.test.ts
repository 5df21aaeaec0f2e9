// Live input authority in a real browser (Chromium through playwright-core) on a page whose node
// ids shift under the user (tests/support/shifting-app.ts): a log above the inputs grows at its top
// from the user's own events and from server ticks, and rows above them are added, reversed and
// removed, so every frame renames the inputs' wrappers as a chain. The test server holds every
// event reply and every SSE frame back 0-300 ms (so frames arrive out of order), sends some SSE
// frames twice, and the page's main thread is kept busy. G1, G2, IME and the choice controls must
// hold with every seed; the seed is printed (SVC_E2E_SEED=<n> replays one, SVC_E2E_SEEDS=<k> runs k).
// G1, IME, G2 and the choice controls run against both browser clients, the live client and the
// split client (docs/protocol.md#the-split-client), with the same seeds. The split client's own
// promise is tested here too: a page script removes kept nodes between frames, and the page still
// ends as the server's render, without a resync.
// SVC_E2E_CPU=<rate> throttles the page's CPU (CDP Emulation.setCPUThrottlingRate) to replay a
// loaded machine deterministically; SVC_E2E_DEBUG=1 prints the posts, renders and console.
//
// Skipped, with the reason printed, under Bun and Deno and when /usr/bin/chromium is missing.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { render } from "../../src/live/render.ts";
import { shiftingApp } from "../support/shifting-app.ts";
import { seeded } from "../support/seeded.ts";
import { composeAndConfirm, e2eSkipReason, eventually, sharedBrowser, sleep, value } from "./support.ts";

const skip = e2eSkipReason();
if (skip !== undefined) console.log(`tests/e2e/shifting skipped: ${skip}`);

const started = Date.now();
/** SVC_E2E_CPU=<rate>: the page's CPU throttled that many times (CDP), as on a loaded machine; timeouts grow with it. */
const CPU = Number(process.env["SVC_E2E_CPU"] ?? 0);
const SLOWER = Math.max(1, CPU / 5);
const SEEDS: number[] = process.env["SVC_E2E_SEED"]
  ? [Number(process.env["SVC_E2E_SEED"])]
  : Array.from({ length: Number(process.env["SVC_E2E_SEEDS"] ?? 2) }, () => Math.floor(Math.random() * 2 ** 31));

const browser = sharedBrowser("svc-e2e-shift-", skip, () => {
  console.log(`e2e shifting total: ${((Date.now() - started) / 1000).toFixed(1)} s`);
});

/**
 * Re-emits an SSE body's `patch` events each after a random 0-300 ms (so they overtake each
 * other), a fifth of them twice; other events and comments pass at once.
 */
function jumbled(body: ReadableStream<Uint8Array>, rand: () => number, drop: () => boolean): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let pending = 0;
  let ended = false;
  let closed = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const emit = (block: string) => {
        if (!closed) controller.enqueue(encoder.encode(`${block}\n\n`));
      };
      const close = () => {
        if (closed) return;
        closed = true;
        controller.close();
      };
      const later = (block: string) => {
        pending++;
        setTimeout(() => {
          emit(block);
          if (--pending === 0 && ended) close();
        }, rand() * 300);
      };
      void (async () => {
        const reader = body.getReader();
        let buffer = "";
        for (;;) {
          const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
          if (chunk.done) break;
          buffer += decoder.decode(chunk.value, { stream: true });
          for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (!block.split("\n").includes("event: patch")) emit(block);
            else if (drop()) continue;
            else {
              later(block);
              if (rand() < 0.2) later(block);
            }
          }
        }
        ended = true;
        if (pending === 0) close();
      })();
    },
    cancel() {
      closed = true;
    },
  });
}

type Post = { msg: string; status: number };

/** A gate the test opens: requests wait at it until then. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open, waiting: 0 };
}

/** The event posts so far, as `msg status` (what a failed check prints, for its replay). */
const postsOf = (app: { readonly posts: readonly Post[] }) => app.posts.map((p) => `${p.msg} ${p.status}`).join(", ");

/** The browser clients the tests run against (`Live.app(def, { client })`). */
type Client = "live" | "split";
const CLIENTS: readonly Client[] = ["live", "split"];
const named = (name: string, client: Client) => (client === "live" ? name : `${name}, split client`);

/** The shifting app on 127.0.0.1 behind a wrapper that delays replies and SSE frames per `seed`. */
async function serve(seed: number, lazy: boolean, client: Client) {
  const { serve: listen } = await import("@hono/node-server");
  const rand = seeded(seed);
  const shifting = shiftingApp({ tickMs: 90, lazy, client });
  const posts: Post[] = [];
  /** GET /_svc/render requests: a resync. */
  let renders = 0;
  // The test can drop the streams' next frame (a gap: the page resyncs after gapMs) and hold the
  // render that resync asks for until it opens the gate.
  const control = {
    /** Each stream open when this grows drops its next frame. */
    dropsAsked: 0,
    renders: undefined as ReturnType<typeof gate> | undefined,
    renderedTop: undefined as string | undefined,
  };
  const server = listen({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (req: Request) => {
      const path = new URL(req.url).pathname;
      const isEvent = req.method === "POST" && path === "/_svc/event";
      const text = isEvent ? await req.clone().text() : "";
      if (path === "/_svc/render") renders++;
      const held = path === "/_svc/render" ? control.renders : undefined;
      if (held !== undefined) {
        held.waiting++;
        await held.opened;
      }
      const resp = await shifting.live.fetch(req);
      if (held !== undefined) control.renderedTop = shifting.model().log[0];
      if (isEvent) {
        let msg = "?";
        try {
          const body = JSON.parse(text) as { msg?: string; batch?: { msg: string }[] };
          msg = body.batch ? body.batch.map((e) => e.msg).join("+") : String(body.msg);
        } catch {
          // not JSON
        }
        posts.push({ msg, status: resp.status });
        if (process.env["SVC_E2E_DEBUG"]) console.log(`post ${resp.status} ${text.slice(0, 400)}`);
        await sleep(rand() * 300);
        return resp;
      }
      if (process.env["SVC_E2E_DEBUG"] && path.endsWith("/_svc/render")) {
        console.log(`render ${req.url} seq ${resp.headers.get("X-Svc-Seq")} moves ${resp.headers.get("X-Svc-Moves")?.length ?? "none"}`);
      }
      if ((resp.headers.get("Content-Type") ?? "").startsWith("text/event-stream") && resp.body !== null) {
        // Every stream open when a drop is asked loses its next frame: the page's, and any of a page
        // before (still closing, or /next's, opened late), whose loss reaches no page. Dropping on
        // the stream opened last alone missed the page when that stream was /next's (seen twice:
        // "round 3: the page resyncs", seeds 241219175 and 1438246599).
        let dropsDone = control.dropsAsked;
        const drop = () => {
          if (dropsDone === control.dropsAsked) return false;
          dropsDone = control.dropsAsked;
          return true;
        };
        return new Response(jumbled(resp.body, rand, drop), { status: resp.status, headers: resp.headers });
      }
      return resp;
    },
  });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    ...shifting,
    posts,
    control,
    renders: () => renders,
    url: `http://127.0.0.1:${port}`,
    close() {
      server.close();
      shifting.live.close();
    },
  };
}

type Served = Awaited<ReturnType<typeof serve>>;

/** One page per seed: ticks started, the main thread kept busy, keystrokes that find the caret moved counted. */
async function withPage(
  name: string,
  seed: number,
  fn: (page: Page, app: Served) => Promise<void>,
  lazy = false,
  client: Client = "live",
): Promise<void> {
  const t0 = Date.now();
  name = named(name, client);
  console.log(`e2e shifting ${name}: seed ${seed} (SVC_E2E_SEED=${seed} to replay)`);
  const app = await serve(seed, lazy, client);
  const ctx = await browser();
  await ctx.clearCookies();
  const page = await ctx.newPage();
  const errors: string[] = [];
  const warnings: string[] = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (m) => {
    if (m.text().startsWith("svc:")) warnings.push(m.text());
    if (process.env["SVC_E2E_DEBUG"]) console.log(`console: ${m.text()}`);
  });
  try {
    if (CPU > 1) await (await ctx.newCDPSession(page)).send("Emulation.setCPUThrottlingRate", { rate: CPU });
    await page.goto(`${app.url}/`);
    await page.waitForFunction(() => document.querySelector('script[type="module"]') !== null);
    const script = await page.$eval('script[type="module"]', (s) => s.getAttribute("src") ?? "");
    assert.match(script, client === "split" ? /_svc=split\.js/ : /_svc=client\.js/, `the page loads the ${client} client`);
    await page.evaluate(busyPage);
    await page.click("#ticks");
    await eventually(() => assert.ok(app.model().ticks >= 3, "the server ticks"));
    await fn(page, app);
    assert.deepEqual(errors, [], "no page errors");
    assert.deepEqual(warnings.filter((w) => !/left the page/.test(w)), [], "no refused event, desync or resync");
    assert.deepEqual(app.posts.filter((p) => p.status >= 400 && p.status !== 410), [], "no event refused");
  } finally {
    await page.close();
    app.close();
    console.log(`e2e shifting ${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
}

/** In the page: a busy main thread (20 of every 60 ms) and the caret monitor. */
function busyPage(): void {
  const w = window as unknown as { caretJumps: number };
  w.caretJumps = 0;
  setInterval(() => {
    const t = performance.now();
    while (performance.now() - t < 20) {
      // busy
    }
  }, 60);
  document.addEventListener("keydown", (event) => {
    const t = event.target as HTMLInputElement;
    if ((t.tagName === "INPUT" || t.tagName === "TEXTAREA") && t.type !== "checkbox" && t.selectionStart !== t.value.length) w.caretJumps++;
  }, true);
}

/**
 * A click on the Add button itself, as the button's own click. A pointer click aims at the point
 * where the button was, and a frame that moves the list above between the aim and the press can
 * land it on whatever moved there, as it did for the link (see tests/support/shifting-app.ts). The
 * count of Adds below checks the events the page sends, not the pointer's aim.
 */
const pressAdd = (page: Page) => page.$eval("#add", (el) => (el as HTMLElement).click());

const idOf = (page: Page, selector: string) => page.$eval(selector, (el) => el.getAttribute("svc-id"));

/** Focuses a control with the caret at its end (a click could land the caret mid-text). */
async function focusEnd(page: Page, selector: string): Promise<void> {
  await page.$eval(selector, (el) => {
    const input = el as HTMLInputElement;
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  });
}

/**
 * G2's check: clicks the link to /next, then waits until the server, among the messages after the
 * first `before`, got `typed` ahead of the navigation message, and that the model holds it.
 */
async function clickNextAfterTyping(page: Page, app: Served, before: number, typed: string, round: number): Promise<void> {
  await Promise.all([page.waitForURL(`${app.url}/next`), page.click("#next")]);
  await eventually(() => {
    const seen = app.received.slice(before);
    const nav = seen.findIndex(([m]) => m === "Navigate");
    assert.ok(nav >= 0, `round ${round}: the navigation message arrived`);
    const at = seen.findIndex(([m, a]) => m === "SetText" && a[0] === typed);
    assert.ok(at >= 0 && at < nav, `round ${round}: the typed value came before the navigation message`);
    assert.equal(app.model().text, typed);
  });
}

/** Types `text`: the first part at human speed, the rest as a burst. */
async function typeInto(page: Page, selector: string, text: string, human: number): Promise<void> {
  await focusEnd(page, selector);
  await page.keyboard.type(text.slice(0, human), { delay: 35 });
  await page.keyboard.type(text.slice(human));
}

// The page as written with plain Ui.h, and again with its log lines, rows and fields as Ui.lazy
// parts, which the session keeps as their calls and builds again when an event reads them.
// Both clients on the plain page; the Ui.lazy variant is the server's, so the live client covers it.
for (const seed of SEEDS) {
  for (const [lazy, client] of [[false, "live"], [true, "live"], [false, "split"]] as const) {
    test(
      `G1 on a shifting page${lazy ? " of Ui.lazy parts" : ""}${
        client === "split" ? " with the split client" : ""
      } (seed ${seed}): 500+ characters typed at human and burst speed into an input, an upper-casing input and a textarea all arrive while the list above grows, reorders and shrinks`,
      { skip, timeout: 180_000 * SLOWER },
      () => g1(seed, lazy, client),
    );
  }
}

async function g1(seed: number, lazy: boolean, client: Client): Promise<void> {
  await withPage(
    lazy ? "G1 (Ui.lazy parts)" : "G1",
    seed,
    async (page, app) => {
      const startId = await idOf(page, "#text");
      const text = "plain text typed slowly, " + "then a burst that must all arrive intact; ".repeat(4);
      const upper = "normalised by the server, " + "and a burst of it too. ".repeat(5);
      const area = "A textarea line.\n" + "A long burst of text below a list that moves. ".repeat(4);
      let sent = 0;
      for (const [selector, full] of [["#text", text], ["#upper", upper], ["#area", area]] as const) {
        // Each input in three chunks; between them the user adds a log line above (own event).
        const third = Math.ceil(full.length / 3);
        for (let i = 0; i < 3; i++) {
          await typeInto(page, selector, full.slice(i * third, (i + 1) * third), i === 0 ? 12 : 0);
          await pressAdd(page);
          sent++;
        }
      }
      assert.ok(text.length + upper.length + area.length >= 500);
      await eventually(async () => {
        const model = app.model();
        assert.equal(model.text, text);
        assert.equal(model.upper, upper.toUpperCase());
        assert.equal(model.area, area);
        assert.equal(await value(page, "#text"), text);
        assert.equal(await value(page, "#upper"), upper.toUpperCase(), "the normalised value applies once acked");
        assert.equal(await value(page, "#area"), area);
      }, 20_000);
      assert.equal(
        await page.evaluate(() => (window as unknown as { caretJumps: number }).caretJumps),
        0,
        "the caret never moved away from the end",
      );
      await eventually(() =>
        assert.equal(
          app.received.filter(([m]) => m === "Add").length,
          sent,
          // What else arrived and how each post was answered: a click that landed on a control that
          // had just moved under the pointer shows up as another message, a refused one as its status.
          `every Add arrived, once; posts: ${
            app.posts.map((p) => `${p.msg} ${p.status}`).filter((p) => !/^Set(Text|Upper|Area) 200$/.test(p)).join(", ")
          }`,
        )
      );
      assert.deepEqual(
        app.posts.filter((p) => p.status !== 200 && p.status !== 204),
        [],
        "nothing the user touched left the page: every event applied",
      );
      assert.notEqual(await idOf(page, "#text"), startId, "the input's id moved while the user typed");
      assert.ok(app.received.filter(([m]) => m === "Tick").length >= 8, "rows grew, reversed and shrank above the inputs");
    },
    lazy,
    client,
  );
}

for (const client of CLIENTS) {
  test(
    `IME on a shifting page${client === "split" ? " with the split client" : ""} (seed ${
      SEEDS[0]
    }): one dispatch of the committed text after compositionend, and the confirming Enter does not send`,
    { skip, timeout: 120_000 * SLOWER },
    async () => {
      await withPage(
        "IME",
        SEEDS[0]!,
        async (page, app) => {
          await focusEnd(page, "#chat");
          // Ticks rename the chat input's wrapper meanwhile, and dispatch their own messages.
          await composeAndConfirm(page, app, { counted: (msg) => msg === "SetChat" || msg === "Send", pause: 150 });
        },
        false,
        client,
      );
    },
  );
}

for (const client of CLIENTS) {
  test(
    `G2 on a shifting page${client === "split" ? " with the split client" : ""} (seed ${
      SEEDS[0]
    }): a debounced value followed at once by a link click reaches the server before the navigation message, in every one of 6 rounds`,
    { skip, timeout: 120_000 * SLOWER },
    async () => {
      await withPage(
        "G2",
        SEEDS[0]!,
        async (page, app) => {
          for (let round = 0; round < 6; round++) {
            await page.waitForFunction(() => document.getElementById("text") !== null);
            await page.evaluate(busyPage);
            const before = app.received.length;
            const typed = `${await value(page, "#text")} r${round}`;
            await focusEnd(page, "#text");
            await page.keyboard.type(` r${round}`);
            await clickNextAfterTyping(page, app, before, typed, round);
            await page.goto(`${app.url}/`);
          }
        },
        false,
        client,
      );
    },
  );
}

for (const client of CLIENTS) {
  test(
    `G2 through a resync on a shifting page${client === "split" ? " with the split client" : ""} (seed ${
      SEEDS[0]
    }): a debounced value typed while the page is far behind and catching up from a render reaches the server before the navigation message, in every one of 4 rounds`,
    { skip, timeout: 180_000 * SLOWER },
    async () => {
      await withPage(
        "G2 resync",
        SEEDS[0]!,
        async (page, app) => {
          // Long lists above the input: every frame renames some 40 nodes, and the render's moves
          // must carry the page through a second or more of them.
          for (let i = 0; i < 30; i++) await page.click("#add");
          await eventually(() => assert.ok(app.model().log.length >= 30, "the log above the inputs is long"));
          for (let round = 0; round < 4; round++) {
            await page.waitForFunction(() => document.getElementById("text") !== null);
            // The page's own stream delivers before a frame is dropped, so that the drop finds it open:
            // a tick's log line at the top shows a frame applied since the page loaded.
            const loaded = await page.$eval("p.log", (p) => p.textContent);
            await page.waitForFunction((line) => document.querySelector("p.log")?.textContent !== line, loaded, { timeout: 15_000 });
            await page.evaluate(busyPage);
            const before = app.received.length;
            const typed = `${await value(page, "#text")} s${round}`;
            // The typed value stays pending (a long debounce) until the link click sends it.
            await page.$eval("#text", (el) => el.setAttribute("data-svc-debounce", "60000"));
            // A frame lost on the stream: the page waits for it, then resyncs; its render is held.
            const renders = (app.control.renders = gate());
            app.control.dropsAsked++;
            await eventually(() => assert.ok(renders.waiting > 0, `round ${round}: the page resyncs`), 15_000);
            await focusEnd(page, "#text");
            await page.keyboard.type(` s${round}`);
            await sleep(1_000); // ticks go on: the render is further ahead still
            app.control.renders = undefined;
            renders.open();
            await eventually(() => assert.ok(app.control.renderedTop !== undefined));
            const top = app.control.renderedTop!;
            app.control.renderedTop = undefined;
            await page.waitForFunction((line) => Array.from(document.querySelectorAll("p.log")).some((p) => p.textContent === line), top);
            assert.equal(await value(page, "#text"), typed, `round ${round}: the page still shows what was typed`);
            await clickNextAfterTyping(page, app, before, typed, round);
            await page.goto(`${app.url}/`);
          }
        },
        false,
        client,
      );
    },
  );
}

for (const [lazy, client] of [[false, "live"], [true, "live"], [false, "split"]] as const) {
  test(
    `checkboxes, selects (with an empty-valued option) and radio groups keep the user's choice through renames${
      lazy ? ", as a Ui.lazy part" : ""
    }${client === "split" ? " with the split client" : ""} (seed ${SEEDS[0]})`,
    { skip, timeout: 120_000 * SLOWER },
    () => choices(lazy, client),
  );
}

async function choices(lazy: boolean, client: Client): Promise<void> {
  await withPage(
    lazy ? "choices (Ui.lazy parts)" : "choices",
    SEEDS[0]!,
    async (page, app) => {
      const picks: [boolean, string, string][] = [[true, "m", "green"], [false, "", "blue"], [true, "l", "red"], [false, "s", "green"]];
      for (const [done, size, color] of picks) {
        if (process.env["SVC_E2E_DEBUG"]) console.log(`pick ${done} ${size} ${color}: checked ${await page.isChecked("#done")}`);
        if ((await page.isChecked("#done")) !== done) await page.click("#done");
        await page.selectOption("#size", size);
        await page.click("#add");
        await page.click(`#color-${color}`);
        // The choice stands at once, whatever frames arrive meanwhile.
        for (let i = 0; i < 5; i++) {
          const pick = `pick ${JSON.stringify([done, size, color])}, look ${i}; posts so far: ${postsOf(app)}`;
          assert.equal(await page.isChecked("#done"), done, `the checkbox, ${pick}`);
          assert.equal(await value(page, "#size"), size, `the select, ${pick}`);
          assert.equal(await page.isChecked(`#color-${color}`), true, `the radio, ${pick}`);
          await sleep(60);
        }
      }
      const [done, size, color] = picks[picks.length - 1]!;
      await eventually(async () => {
        const model = app.model();
        assert.deepEqual([model.done, model.size, model.color], [done, size, color]);
        assert.equal(await page.isChecked("#done"), done);
        assert.equal(await value(page, "#size"), size);
        assert.deepEqual(
          await page.$$eval('input[name="color"]', (els) => els.map((el) => (el as HTMLInputElement).checked)),
          ["red", "green", "blue"].map((c) => c === color),
        );
      });
      // Every choice reached the app as the user made it, in order (docs/protocol.md#client-rules,
      // rule 11), the empty option's value as the empty string.
      const argsOf = (msg: string) => app.received.filter(([m]) => m === msg).map(([, a]) => a);
      const sent = `received ${JSON.stringify(app.received)}; posts ${postsOf(app)}`;
      assert.deepEqual(argsOf("SetSize"), picks.map(([, s]) => [s]), `each pick of the select, ${sent}`);
      assert.deepEqual(argsOf("SetDone"), picks.map(([d]) => [d]), `each tick of the checkbox, ${sent}`);
      assert.deepEqual(argsOf("SetColor"), picks.map(([, , c]) => [c, true]), `each pick of a radio, ${sent}`);
    },
    lazy,
    client,
  );
}

/**
 * In the page, as source text (the test's transpiler would name its functions with a helper the
 * page lacks): every 40 ms, one of the root's children (log lines, rows, the fields' wrappers; not
 * the buttons) is taken out of the DOM, as a browser extension or a third-party script would; the
 * picks follow the seed (mulberry32).
 */
const REMOVER = `(seed) => {
  let a = seed >>> 0;
  const rand = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  window.removed = 0;
  window.remover = setInterval(() => {
    const kids = Array.from(document.querySelector("main")?.children ?? []).slice(0, -1);
    const pick = kids[Math.floor(rand() * kids.length)];
    if (pick === undefined) return;
    pick.remove();
    window.removed++;
  }, 40);
}`;

/**
 * In the page: "" when the root is the rendered markup (tags, attributes but the ids, which the
 * markup leaves out where the client derives them, and texts), else both, for the message.
 */
const SAME_AS_PAGE = `(rendered) => {
  const canon = (node) => node.nodeType === 1
    ? {
      tag: node.localName,
      attrs: Array.from(node.attributes).filter((a) => a.name !== "svc-id").map((a) => a.name + "=" + a.value).sort(),
      kids: Array.from(node.childNodes).map(canon),
    }
    : String(node.nodeValue);
  const holder = document.createElement("body");
  holder.innerHTML = rendered;
  const want = JSON.stringify(canon(holder.firstElementChild));
  const have = JSON.stringify(canon(document.querySelector("main")));
  return want === have ? "" : "page: " + have + " render: " + want;
}`;

test(
  `the split client rebuilds kept nodes a page script removes between frames (seed ${
    SEEDS[0]
  }): the page ends as the server's render, with no resync request`,
  { skip, timeout: 120_000 * SLOWER },
  async () => {
    await withPage(
      "slot rebuild",
      SEEDS[0]!,
      async (page, app) => {
        await page.evaluate(`(${REMOVER})(${SEEDS[0]!})`);
        await sleep(3_000);
        await page.evaluate("clearInterval(window.remover)");
        const removed = (await page.evaluate("window.removed")) as number;
        assert.ok(removed >= 20, `the script removed kept nodes (${removed})`);
        // Two more ticks (each keeps every child of the root), then the ticks stop.
        const ticks = app.model().ticks;
        await eventually(() => assert.ok(app.model().ticks >= ticks + 2));
        await page.$eval("#ticks", (el) => (el as HTMLElement).click());
        await eventually(() => assert.equal(app.model().ticking, false));
        await sleep(1_000);
        const session = [...app.live.sessions.all()][0]!;
        const html = render(session.currentTree());
        // Tags, attributes (but ids: the markup leaves out those the client derives) and texts.
        const same = await page.evaluate(`(${SAME_AS_PAGE})(${JSON.stringify(html)})`);
        assert.equal(same, "", "the page is the server's render");
        assert.equal(app.renders(), 0, "no resync: every slot was rebuilt from the client's tree");
      },
      false,
      "split",
    );
  },
);
