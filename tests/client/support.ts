/**
 * A happy-dom page with the live client started on an injected network: every fetch is recorded
 * and answered by the test (at once through `auto`, or later through `respond`), SSE is a fake
 * EventSource the test pushes frames into, the beacon and reloads are recorded.
 */
import { test } from "node:test";
import { Window } from "happy-dom";
import { LiveClient, type Options } from "../../client/client.ts";
import { listen } from "../../client/events.ts";
import { SplitApplier } from "../../client/split/apply.ts";
import type { EventSourceLike } from "../../client/sse.ts";

export type Req = {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Record<string, unknown> | undefined;
  init: RequestInit;
  respond(resp: Response): void;
  fail(error: Error): void;
};

export class FakeEventSource implements EventSourceLike {
  readyState = 1;
  onopen: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  private listeners = new Map<string, ((event: MessageEvent) => void)[]>();
  constructor(readonly url: string, readonly all: FakeEventSource[]) {
    all.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close(): void {
    this.closed = true;
    this.readyState = 2;
  }
  /** Delivers one SSE event of this type with this data. */
  event(type: string, data: unknown): void {
    for (const listener of this.listeners.get(type) ?? []) listener({ data: JSON.stringify(data) } as MessageEvent);
  }
  /** Delivers one `event: patch` frame. */
  frame(frame: unknown): void {
    this.event("patch", frame);
  }
  /** Delivers the `event: lost` signal (the session ended while the stream was open). */
  lost(): void {
    this.event("lost", "session-lost");
  }
  /** The connection dropped and the browser is reconnecting by itself (readyState CONNECTING). */
  error(): void {
    this.readyState = 0;
    this.onerror?.({} as Event);
  }
  /** The browser gave up on the stream (a refused response): readyState CLOSED. */
  fail(): void {
    this.readyState = 2;
    this.onerror?.({} as Event);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/**
 * Waits until `done()` holds, checking every few milliseconds, for at most `ms` (then the test's
 * own assertions say what was missing). For waits on a backoff, which a loaded machine stretches.
 */
export async function until(done: () => boolean, ms = 2_000): Promise<void> {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await sleep(5);
}
/** Lets promise callbacks (fetch resolution, the send queue) run. */
export const settle = async () => {
  for (let i = 0; i < 5; i++) await sleep(0);
};

export const json = (body: unknown, headers: Record<string, string> = {}, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

export const status = (code: number, svcStatus?: string, headers: Record<string, string> = {}) =>
  new Response(code === 204 ? null : "x", { status: code, headers: svcStatus ? { "X-Svc-Status": svcStatus, ...headers } : headers });

export type Page = ReturnType<typeof page>;

export function page(
  body: string,
  setup: {
    seq?: number;
    options?: Options;
    auto?: (req: Req) => Response | undefined;
    base?: string;
    /** The split client's applier (client/split/apply.ts) instead of the live client's. */
    split?: boolean;
    /** Wraps the recording fetch the client is given (the split client's Session field). */
    wrapFetch?: (fetch: (url: string, init: RequestInit) => Promise<Response>) => (url: string, init: RequestInit) => Promise<Response>;
  } = {},
) {
  const win = new Window({ url: "http://app.test/" });
  const doc = win.document as unknown as Document;
  doc.body.innerHTML = body;
  const requests: Req[] = [];
  const beacons: { url: string; body: Record<string, unknown> }[] = [];
  const sources: FakeEventSource[] = [];
  const logs: string[] = [];
  let reloads = 0;
  const fetch = (url: string, init: RequestInit) =>
    new Promise<Response>((resolve, reject) => {
      const req: Req = {
        url,
        method: init.method ?? "GET",
        headers: { ...(init.headers as Record<string, string>) },
        body: typeof init.body === "string" ? (JSON.parse(init.body) as Record<string, unknown>) : undefined,
        init,
        respond: resolve,
        fail: reject,
      };
      requests.push(req);
      // An aborted attempt (the client's timeout) rejects, as the platform's fetch does.
      init.signal?.addEventListener("abort", () => reject(init.signal?.reason));
      const auto = setup.auto?.(req);
      if (auto !== undefined) resolve(auto);
    });
  const client = new LiveClient(
    {
      doc,
      fetch: setup.wrapFetch?.(fetch) ?? fetch,
      EventSource: class extends FakeEventSource {
        constructor(url: string) {
          super(url, sources);
        }
      },
      beacon: (url, text) => {
        beacons.push({ url, body: JSON.parse(text) as Record<string, unknown> });
        return true;
      },
      reload: () => void reloads++,
      FormData: win.FormData as unknown as typeof FormData,
      log: (message) => void logs.push(message),
    },
    { csrf: "tok", seq: setup.seq ?? 0, base: setup.base ?? "", sessionId: "h1" },
    { debounceMs: 20, gapMs: 60, retryMs: 2, ...setup.options },
    setup.split === true ? (d, inputs) => new SplitApplier(d, inputs) : undefined,
  );
  const detach = listen(client, win as unknown as Parameters<typeof listen>[1]);
  client.connect();

  const el = <T extends Element = HTMLElement>(id: string) => {
    const found = doc.querySelector(`[svc-id="${id}"]`);
    if (found === null) throw new Error(`no element ${id}`);
    return found as unknown as T;
  };
  const fire = (target: Element, type: string, init: Record<string, unknown> = {}) => {
    const Ctor =
      (type.startsWith("key")
        ? win.KeyboardEvent
        : type.startsWith("composition")
        ? win.CompositionEvent
        : type === "input"
        ? win.InputEvent
        : win.Event) as unknown as typeof Event;
    return target.dispatchEvent(new Ctor(type, { bubbles: true, cancelable: true, ...init }));
  };
  /** The user types: the value changes, then an input event (as a browser does per keystroke). */
  const type = (input: HTMLInputElement | HTMLTextAreaElement, text: string) => {
    for (const ch of text) {
      input.value += ch;
      fire(input, "input");
    }
  };
  /** Event posts only (not render, rotate or batches). */
  const events = () => requests.filter((r) => r.url.endsWith("/_svc/event") && r.body !== undefined && !("batch" in r.body));
  /** Waits until `n` requests have been made. */
  const waitFor = async (n: number, timeoutMs = 1000) => {
    const start = Date.now();
    while (requests.length < n) {
      if (Date.now() - start > timeoutMs) throw new Error(`expected ${n} requests, got ${requests.length}`);
      await sleep(1);
    }
    return requests[n - 1] as Req;
  };
  return {
    win,
    doc,
    client,
    requests,
    beacons,
    sources,
    logs,
    el,
    fire,
    type,
    events,
    waitFor,
    get reloads() {
      return reloads;
    },
    get sse() {
      return sources[sources.length - 1] as FakeEventSource;
    },
    async close() {
      detach();
      client.close();
      // Requests left unanswered end, so no resend loop outlives the page.
      for (const req of requests) req.fail(new Error("page closed"));
      await win.happyDOM.close();
    },
  };
}

/** A page root as the renderer writes it, with the message attributes of each handler kind. */
export const ROOT = `<main svc-id="r">` +
  `<p svc-id="r.0#p">count 0</p>` +
  `<input svc-id="r.#input:title" data-svc-hid="r.#input:title" data-svc-on="input" data-svc-input="SetTitle" name="title">` +
  `<button svc-id="r.2#button" data-svc-hid="r.2#button" data-svc-on="click" data-svc-click="Inc">+</button>` +
  `<ul svc-id="r.3#ul"><li svc-id="r.3#ul.#li:a" svc-key="a">A</li><li svc-id="r.3#ul.#li:b" svc-key="b">B</li></ul>` +
  `<form svc-id="r.#form:f" name="f" data-svc-hid="r.#form:f" data-svc-on="submit" data-svc-submit='["Add",1]'>` +
  `<input svc-id="r.#form:f.#input:note" name="note"><button svc-id="r.#form:f.1#button" type="submit">go</button></form>` +
  `<a svc-id="r.5#a" href="#next" data-svc-hid="r.5#a" data-svc-on="click" data-svc-click="Navigate">next</a>` +
  `<input svc-id="r.6#input" data-svc-hid="r.6#input" data-svc-on="keydown" data-svc-keydown="Send" data-svc-keyfilter="Enter">` +
  `<input type="checkbox" svc-id="r.#input:done" name="done" data-svc-hid="r.#input:done" data-svc-on="change" data-svc-change='["Toggle",7]'>` +
  `<textarea svc-id="r.#textarea:body" name="body" data-svc-hid="r.#textarea:body" data-svc-on="input" data-svc-input="SetBody"></textarea>` +
  `<select svc-id="r.#select:size" name="size" data-svc-hid="r.#select:size" data-svc-on="change" data-svc-change="SetSize">` +
  `<option svc-id="r.#select:size.0#option" value="s">S</option><option svc-id="r.#select:size.1#option" value="m">M</option></select>` +
  `<input svc-id="r.#input:free" name="free">` +
  `</main>`;

export const TITLE = "r.#input:title";

/** The page id a client body carries (one per page load, 16 random bytes as base64url), checked. */
export function pageOf(body: Record<string, unknown> | undefined): string {
  const page = body?.["page"];
  if (typeof page !== "string" || !/^[A-Za-z0-9_-]{22}$/.test(page)) throw new Error(`expected a page id, got ${JSON.stringify(page)}`);
  return page;
}

/**
 * Registers a test once per browser client: with the live client's applier, then with the split
 * client's (client/split/apply.ts), named so. `fn` gets `page` bound to that client.
 */
export function eachClient(name: string, fn: (pageOf: typeof page) => Promise<void>): void {
  for (const split of [false, true]) {
    test(split ? `${name} (split client)` : name, () => fn((body, setup = {}) => page(body, { ...setup, split })));
  }
}
