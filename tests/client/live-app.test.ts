// The client against the real server in process: Live.app renders, diffs and acks, the client
// applies, with every event reply delayed at random (docs/protocol.md G1, G3; docs/protocol.md#client-rules).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Window } from "happy-dom";
import { LiveClient } from "../../client/client.ts";
import { listen } from "../../client/events.ts";
import type { EventSourceLike } from "../../client/sse.ts";
import { cookieHeader } from "../support/live-harness.ts";
import { demoApp } from "../support/demo-app.ts";
import { sleep } from "./support.ts";

const ORIGIN = "http://app.test";

/** A tab: a happy-dom page of the app's first render, the client on app.fetch with a cookie jar. */
async function openTab(maxDelayMs: number) {
  const demo = demoApp();
  let cookies = "";
  const call = async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (cookies) headers.set("Cookie", cookies);
    const resp = await demo.live.fetch(new Request(ORIGIN + url, { ...init, headers }));
    cookies = cookieHeader(resp, cookies);
    return resp;
  };
  const html = await (await call("/")).text();
  const meta = (name: string) => new RegExp(`<meta name="${name}" content="([^"]*)">`).exec(html)?.[1] ?? "";
  const win = new Window({ url: `${ORIGIN}/` });
  const doc = win.document as unknown as Document;
  doc.body.innerHTML = /<body>([\s\S]*)<\/body>/.exec(html)?.[1] ?? "";

  const streams: { cancel(): void }[] = [];
  class AppEventSource implements EventSourceLike {
    readyState = 0;
    onopen: ((event: Event) => void) | null = null;
    onerror: ((event: Event) => void) | null = null;
    private listeners: { type: string; listener: (event: MessageEvent) => void }[] = [];
    private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    constructor(url: string) {
      void call(url).then(async (resp) => {
        this.reader = resp.body!.getReader();
        streams.push(this.reader);
        this.readyState = 1;
        const decoder = new TextDecoder();
        let buffer = "";
        for (;;) {
          const chunk = await this.reader.read().catch(() => ({ done: true as const, value: undefined }));
          if (chunk.done) return;
          buffer += decoder.decode(chunk.value, { stream: true });
          for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
            const block = buffer.slice(0, end).split("\n");
            buffer = buffer.slice(end + 2);
            const data = block.find((line) => line.startsWith("data: "));
            const type = block.find((line) => line.startsWith("event: "))?.slice(7);
            if (type !== undefined && data) {
              for (const l of this.listeners) if (l.type === type) l.listener({ data: data.slice(6) } as MessageEvent);
            }
          }
        }
      });
    }
    addEventListener(type: string, listener: (event: MessageEvent) => void) {
      this.listeners.push({ type, listener });
    }
    close() {
      this.readyState = 2;
      void this.reader?.cancel();
    }
  }

  const client = new LiveClient(
    {
      doc,
      // Each event reply is held back 0..maxDelayMs after the server has processed it.
      fetch: async (url, init) => {
        const resp = await call(url, init);
        if (url.endsWith("/_svc/event")) await sleep(Math.random() * maxDelayMs);
        return resp;
      },
      EventSource: AppEventSource,
      reload: () => assert.fail("unexpected reload"),
      FormData: win.FormData as unknown as typeof FormData,
    },
    { csrf: meta("svc-csrf"), seq: Number(meta("svc-seq")), base: meta("svc-base"), sessionId: meta("svc-session") },
    { debounceMs: 8 },
  );
  const detach = listen(client, win as unknown as Parameters<typeof listen>[1]);
  client.connect();
  const byId = <T extends Element>(id: string) => doc.getElementById(id) as unknown as T;
  const input = (el: HTMLInputElement | HTMLTextAreaElement, ch: string) => {
    el.value += ch;
    el.dispatchEvent(new win.InputEvent("input", { bubbles: true }) as unknown as Event);
  };
  /** Waits until nothing is pending, queued or waiting for an ack. */
  const idle = async () => {
    for (let i = 0; i < 400; i++) {
      await sleep(10);
      const busy = client.queue.length > 0 || doc.documentElement.hasAttribute("data-svc-busy") ||
        [...client.inputs.entries.values()].some((e) => client.inputs.dirty(e) && e.el !== doc.activeElement);
      if (!busy && client.order.waiting === 0) return;
    }
    assert.fail("the client did not settle");
  };
  return {
    demo,
    doc,
    win,
    client,
    byId,
    input,
    idle,
    async close() {
      detach();
      client.close();
      for (const s of streams) s.cancel();
      demo.live.close();
      await win.happyDOM.close();
    },
  };
}

test("typing 300 characters across a normalised input, a search box and a textarea with delayed replies loses nothing", async () => {
  const tab = await openTab(15);
  const title = tab.byId<HTMLInputElement>("title");
  const search = tab.byId<HTMLInputElement>("search");
  const body = tab.byId<HTMLTextAreaElement>("body");
  const typed = {
    title: "the quick brown fox jumps over the lazy dog ".repeat(3).trim(),
    search: "an",
    body: "line one\nline two, with more words to type ".repeat(4),
  };
  let i = 0;
  for (const [el, text] of [[title, typed.title], [search, typed.search], [body, typed.body]] as const) {
    el.focus();
    for (const ch of text) {
      tab.input(el, ch);
      if (i++ % 7 === 0) await sleep(Math.random() * 12); // bursts and pauses
    }
  }
  assert.ok(i >= 300);
  body.blur();
  await tab.idle();
  const model = tab.demo.model();
  assert.equal(model.title, typed.title.toUpperCase());
  assert.equal(model.search, typed.search);
  assert.equal(model.body, typed.body);
  assert.equal(title.value, typed.title.toUpperCase(), "the normalised value applies once acked");
  assert.equal(search.value, typed.search);
  assert.equal(body.value, typed.body);
  // The results list beside raw HTML was re-rendered around the typed input, which stayed.
  assert.equal(tab.byId("search-box").querySelector("small")?.textContent, `${model.results.length} hits`);
  assert.deepEqual([...tab.byId("results").children].map((li) => li.textContent), model.results);
  assert.equal(tab.doc.querySelector("#search"), search, "the search input kept its node");
  await tab.close();
});

test("a submit applies the server-side clear once the keystrokes are acked, and a replaced form comes back empty", async () => {
  const tab = await openTab(10);
  const title = tab.byId<HTMLInputElement>("title");
  title.focus();
  for (const ch of "buy milk") tab.input(title, ch);
  tab.byId<HTMLFormElement>("title-form").requestSubmit();
  await tab.idle();
  assert.deepEqual(tab.demo.model().saved, ["BUY MILK"]);
  assert.equal(title.value, "", "cleared by the server after the submit");
  assert.equal(tab.byId("saved").textContent, "BUY MILK");

  const note = tab.byId<HTMLInputElement>("note");
  note.focus();
  for (const ch of "first") tab.input(note, ch);
  tab.byId<HTMLFormElement>("note-form").requestSubmit();
  await tab.idle();
  assert.deepEqual(tab.demo.model().notes, ["first"]);
  const fresh = tab.byId<HTMLInputElement>("note");
  assert.notEqual(fresh, note, "the form was replaced (its submit args changed)");
  assert.equal(fresh.value, "");

  for (const ch of "abc") tab.input(tab.byId<HTMLInputElement>("search"), ch);
  await tab.idle();
  tab.byId<HTMLElement>("reset").click();
  await tab.idle();
  assert.equal(tab.byId<HTMLInputElement>("search").value, "", "a reset applies");
  assert.equal(tab.demo.model().search, "");
  await tab.close();
});

test("a click right after typing reaches the server after the typed value", async () => {
  const tab = await openTab(10);
  const title = tab.byId<HTMLInputElement>("title");
  for (const ch of "last words") tab.input(title, ch);
  tab.byId<HTMLElement>("inc").click();
  await tab.idle();
  const msgs = tab.demo.received.map(([m, a]) => `${m}${a.length ? `:${String(a[0])}` : ""}`);
  assert.deepEqual(msgs, ["SetTitle:last words", "Inc"]);
  await tab.close();
});
