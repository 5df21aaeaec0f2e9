import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { buttonId, formAppPool } from "./apps.ts";
import { openTab } from "../support/live-harness.ts";
import { Live } from "../../src/live/mod.ts";
import { Ui } from "../../src/ui/mod.ts";
import type { LiveApp } from "../../src/live/server/app/app.ts";
import type { FormModel } from "./apps.ts";
import { setLogSink } from "../../src/log.ts";
import { MemorySessionStore } from "../../src/live/server/registry/snapshot-store.ts";

// docs/protocol.md#event-request, docs/protocol.md#event-reply, docs/protocol.md#sequence-numbers.
const freshApp = formAppPool(after);

const TITLE = "r.#input:title";
const modelOf = (a: LiveApp<FormModel>) => [...a.sessions.all()][0]!.model;
const sessionOf = (a: LiveApp<FormModel>) => [...a.sessions.all()][0]!;

describe("the page GET", () => {
  test("init sees the page request, so an app can read a cookie it set (a one-time notice) without the URL carrying it", async () => {
    const app = Live.app<{ notice: string }>({
      init: ({ request }) => ({ notice: /(?:^|; )notice=([^;]*)/.exec(request.headers.get("Cookie") ?? "")?.[1] ?? "none" }),
      update: (model) => model,
      view: (model) => Ui.h("main", {}, Ui.h("p", {}, `notice: ${model.notice}`)),
    });
    const tab = await openTab(app, "http://app.test/", "notice=saved");
    assert.match(tab.html, /notice: saved/);
    app.close();
  });

  test("renders the first view as full HTML with svc-ids, the client script, the CSRF token and the session counter", async () => {
    const tab = await openTab(freshApp());
    assert.match(tab.html, /^<!doctype html>/);
    assert.match(tab.html, /<main svc-id="r">/);
    assert.match(tab.html, /<script type="module" src="\?_svc=client.js&amp;v=[0-9a-f]{16}"><\/script>/);
    assert.match(tab.html, /<meta name="svc-seq" content="0">/);
    assert.ok(tab.csrf.length >= 40);
    assert.match(tab.cookies, /^svc_sid=[\w-]{43}; __svc_csrf=[\w-]{43}$/);
  });

  test("a sub-app's session cookie is svc_<name>_sid; over https it is __Host- prefixed and Secure; both spellings are read", async () => {
    const named = freshApp({ name: "admin" });
    const page = await named.fetch(new Request("https://app.test/"));
    const [session, csrf] = page.headers.getSetCookie();
    assert.match(session!, /^__Host-svc_admin_sid=[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
    assert.match(csrf!, /^__Host-__svc_csrf=[\w-]+; Path=\/; HttpOnly; SameSite=Strict; Secure$/);
    const id = session!.slice(session!.indexOf("=") + 1, session!.indexOf(";"));
    for (const cookie of [`__Host-svc_admin_sid=${id}`, `svc_admin_sid=${id}`]) {
      const again = await named.fetch(new Request("https://app.test/", { headers: { Cookie: cookie } }));
      await again.text();
      assert.equal(named.sessions.size, 1, `${cookie} names the same session`);
    }
  });

  test("a reload with the session cookie keeps the session and its model", async () => {
    const a = freshApp();
    const tab = await openTab(a);
    await tab.post({ seq: 1, msg: "Inc", handlerId: buttonId(tab.html, "\\+") });
    const reloaded = await openTab(a, "http://app.test/", tab.cookies);
    assert.match(reloaded.html, /count 1/);
    assert.match(reloaded.html, /<meta name="svc-seq" content="1">/);
    assert.equal(a.sessions.size, 1);
  });
});

describe("POST /_svc/event", () => {
  test("replies with a new session seq, respondingTo the request seq, and patches (always an array)", async () => {
    const a = freshApp({ messages: ["Noop"] });
    const tab = await openTab(a);
    const inc = buttonId(tab.html, "\\+");
    const first = await tab.post({ seq: 7, msg: "Inc", handlerId: inc });
    assert.equal(first.headers.get("Content-Type"), "application/json");
    assert.deepEqual(await first.json(), { seq: 1, respondingTo: 7, patches: [{ id: "r.0#p", text: "count 1" }] });
    // "Noop" is declared in options.messages: accepted though no handler names it; nothing changes.
    const unchanged = await tab.post({ seq: 8, msg: "Noop" });
    assert.deepEqual(await unchanged.json(), { seq: 2, respondingTo: 8, patches: [] });
  });

  test("an old client without seq or inputState gets the plain behaviour: seq 0, no acks", async () => {
    const tab = await openTab(freshApp());
    const resp = await tab.post({ msg: "Inc" });
    assert.deepEqual(await resp.json(), { seq: 1, respondingTo: 0, patches: [{ id: "r.0#p", text: "count 1" }] });
  });

  test("acks the largest processed seq for reported inputs present in the previous tree", async () => {
    const a = freshApp();
    const tab = await openTab(a);
    const resp = await tab.post({
      seq: 3,
      msg: "SetTitle",
      args: ["abc"],
      handlerId: TITLE,
      inputState: { [TITLE]: { value: "abc", seq: 3 }, "r.99#input": { value: "x", seq: 3 } },
    });
    const body = (await resp.json()) as { ackInputs: Record<string, number> };
    assert.deepEqual(body.ackInputs, { [TITLE]: 3 }, "an id not in the previous tree is not acked");
    assert.equal(sessionOf(a).inputSeqs.get(TITLE), 3);
  });

  test("the stored per-input seq only rises: a late, lower report does not lower it, and its ack stays the max", async () => {
    const a = freshApp();
    const tab = await openTab(a);
    await tab.post({ seq: 5, msg: "SetTitle", args: ["new"], handlerId: TITLE, inputState: { [TITLE]: { value: "new", seq: 5 } } });
    const late = await tab.post({
      seq: 4,
      msg: "SetTitle",
      args: ["old"],
      handlerId: TITLE,
      inputState: { [TITLE]: { value: "old", seq: 4 } },
    });
    assert.deepEqual(((await late.json()) as { ackInputs: object }).ackInputs, { [TITLE]: 5 });
    assert.equal(sessionOf(a).inputSeqs.get(TITLE), 5);
  });

  test("the client's reported value is the authority map: a normalised value equal to what the client shows emits no patch", async () => {
    const tab = await openTab(freshApp());
    // The user typed "ABC"; update normalises to "ABC": the client already shows it.
    const same = await tab.post({
      seq: 1,
      msg: "SetTitle",
      args: ["ABC"],
      handlerId: TITLE,
      inputState: { [TITLE]: { value: "ABC", seq: 1 } },
    });
    assert.deepEqual(((await same.json()) as { patches: unknown[] }).patches, []);
    // The user typed " abd"; the render changes to "ABD", which differs from what the client shows.
    const differs = await tab.post({
      seq: 2,
      msg: "SetTitle",
      args: [" abd"],
      handlerId: TITLE,
      inputState: { [TITLE]: { value: " abd", seq: 2 } },
    });
    assert.deepEqual(((await differs.json()) as { patches: unknown[] }).patches, [{ id: TITLE, attrs: { value: "ABD" } }]);
  });

  test("a per-input entry is evicted when the input leaves the rendered tree", async () => {
    const a = freshApp();
    const tab = await openTab(a);
    await tab.post({ seq: 1, msg: "SetTitle", args: ["x"], handlerId: TITLE, inputState: { [TITLE]: { value: "x", seq: 1 } } });
    assert.equal(sessionOf(a).inputSeqs.has(TITLE), true);
    await tab.post({ seq: 2, msg: "ToggleTitle", handlerId: buttonId(tab.html, "toggle") });
    assert.equal(sessionOf(a).inputSeqs.has(TITLE), false);
  });

  test("a reply whose only patch replaces the root is full HTML with X-Svc-Seq and X-Svc-Ack-Inputs", async () => {
    const tab = await openTab(freshApp());
    const resp = await tab.post({
      seq: 4,
      msg: "Finish",
      handlerId: buttonId(tab.html, "finish"),
      inputState: { [TITLE]: { value: "typed", seq: 4 } },
    });
    assert.equal(resp.headers.get("Content-Type"), "text/html; charset=utf-8");
    assert.equal(resp.headers.get("X-Svc-Seq"), "1");
    assert.equal(resp.headers.get("X-Svc-Ack-Inputs"), JSON.stringify({ [TITLE]: 4 }));
    assert.equal(await resp.text(), '<section svc-id="r"><p>done</p></section>');
    const noAcks = await (await openTab(freshApp())).post({ seq: 1, msg: "Finish" });
    assert.equal(noAcks.headers.get("X-Svc-Ack-Inputs"), null, "the ack header is omitted when empty");
  });

  test("100 concurrent events on one session get strictly increasing seqs and lose no update", async () => {
    const a = freshApp();
    const tab = await openTab(a);
    const inc = buttonId(tab.html, "\\+");
    const replies = await Promise.all(
      Array.from(
        { length: 100 },
        (_, i) =>
          tab.post({ seq: i + 1, msg: "Inc", handlerId: inc }).then((r) => r.json() as Promise<{ seq: number; respondingTo: number }>),
      ),
    );
    const bySeq = [...replies].sort((x, y) => x.seq - y.seq);
    assert.deepEqual(bySeq.map((r) => r.seq), Array.from({ length: 100 }, (_, i) => i + 1));
    assert.equal(new Set(replies.map((r) => r.respondingTo)).size, 100);
    assert.equal(modelOf(a).count, 100);
  });

  test("an exception in update is contained: 500 app-error, logged, and the session carries on unchanged", async () => {
    const a = freshApp();
    const tab = await openTab(a);
    const lines: string[] = [];
    const previous = setLogSink((level, line) => lines.push(`${level} ${line}`));
    let resp: Response;
    try {
      resp = await tab.post({
        seq: 1,
        msg: "Boom",
        handlerId: buttonId(tab.html, "boom"),
        inputState: { [TITLE]: { value: "v", seq: 1 } },
      });
    } finally {
      setLogSink(previous);
    }
    assert.equal(resp.status, 500);
    assert.equal(resp.headers.get("X-Svc-Status"), "app-error");
    assert.ok(lines.some((line) => line.startsWith("ERROR live.update failed")));
    assert.equal(sessionOf(a).outSeq, 0);
    assert.equal(sessionOf(a).inputSeqs.size, 0, "the failed event's input seqs are not recorded");
    const next = await tab.post({ seq: 2, msg: "Inc", handlerId: buttonId(tab.html, "\\+") });
    assert.deepEqual(((await next.json()) as { seq: number }).seq, 1);
  });

  test("update returning undefined (a message without its case) is reported as that, naming the message", async () => {
    type Model = { draft: string; count: number };
    // A switch without a case for the misspelt "Remvoe" falls through and returns undefined.
    const a = Live.app<Model>({
      init: () => ({ draft: "", count: 0 }),
      update: ((model: Model, msg: string) => {
        switch (msg) {
          case "Inc":
            return { ...model, count: model.count + 1 };
        }
      }) as (model: Model, msg: string) => Model,
      view: ({ draft, count }) => Ui.h("main", {}, Ui.h("p", {}, draft, String(count)), Ui.h("button", { onClick: "Remvoe" }, "x")),
    });
    const tab = await openTab(a);
    const lines: string[] = [];
    const previous = setLogSink((level, line) => lines.push(`${level} ${line}`));
    let resp: Response;
    try {
      resp = await tab.post({ seq: 1, msg: "Remvoe", handlerId: buttonId(tab.html, "x") });
    } finally {
      setLogSink(previous);
    }
    assert.equal(resp.status, 500);
    assert.equal(resp.headers.get("X-Svc-Status"), "app-error");
    const body = (await resp.json()) as { report?: { message: string } };
    assert.equal(
      body.report?.message,
      'update("Remvoe") failed: Error: update returned undefined for the message "Remvoe": it must return the model (or [model, command]) for every message',
    );
    assert.ok(
      lines.some((line) =>
        line.startsWith("ERROR live.update failed") && line.includes('update returned undefined for the message "Remvoe"')
      ),
    );
    assert.deepEqual([...a.sessions.all()][0]!.model, { draft: "", count: 0 }, "the session keeps its model");
    a.close();
  });

  test("Live.unhandled, reached when the app runs, throws naming the message", () => {
    // A message name the compiler knows only as a string, as in an untyped app (a typed one's is never here).
    const msg: string = "Remvoe";
    assert.throws(() => Live.unhandled(msg), { message: 'update has no case for the message "Remvoe"' });
  });

  test("a batch is processed in order under the mutex, each entry as if alone; the reply is 204", async () => {
    const a = freshApp();
    const tab = await openTab(a);
    const inc = buttonId(tab.html, "\\+");
    const resp = await tab.post({
      msg: "ignored",
      seq: 99,
      batch: [{ seq: 1, msg: "Inc", handlerId: inc }, { seq: 2, msg: "SetTitle", args: ["b"], handlerId: TITLE }, {
        seq: 3,
        msg: "Inc",
        handlerId: inc,
      }],
    });
    assert.equal(resp.status, 204);
    assert.equal(await resp.text(), "");
    assert.deepEqual({ count: modelOf(a).count, title: modelOf(a).title }, { count: 2, title: "B" });
    assert.equal(sessionOf(a).outSeq, 3, "each entry produced its own frame");
  });

  test("a page's entry sent twice (the request in flight, re-sent ahead of a navigation batch) is processed once, whichever copy comes first", async () => {
    const a = freshApp();
    const tab = await openTab(a);
    const inc = buttonId(tab.html, "\\+");
    const page = "p".repeat(22);
    // The batch arrives first: the in-flight entry (seq 1) and the navigation's own entries run;
    // the late original is answered 204 and not processed.
    const batch = await tab.post({
      page,
      inputState: { [TITLE]: { value: "late", seq: 2 } },
      batch: [{ seq: 1, msg: "Inc", handlerId: inc }, { seq: 2, msg: "SetTitle", args: ["late"], handlerId: TITLE }],
    });
    assert.equal(batch.status, 204);
    assert.equal(sessionOf(a).inputSeqs.get(TITLE), 2, "the reported inputs went with the first entry processed");
    const original = await tab.post({ page, seq: 1, msg: "Inc", handlerId: inc });
    assert.equal(original.status, 204);
    // It names the session's seq: a tab whose reply to the first copy was lost then knows what it lacks.
    assert.equal(original.headers.get("X-Svc-Seq"), String(sessionOf(a).outSeq));
    assert.equal(modelOf(a).count, 1);
    // The original arrives first: the batch skips its copy and runs the rest.
    const first = await tab.post({ page, seq: 3, msg: "Inc", handlerId: inc });
    assert.equal(first.status, 200);
    await tab.post({ page, batch: [{ seq: 3, msg: "Inc", handlerId: inc }, { seq: 4, msg: "Inc", handlerId: inc }] });
    assert.equal(modelOf(a).count, 3);
    const outSeq = sessionOf(a).outSeq;
    // Another page (a second tab, a reload) counts its own seqs; a body without a page is never a copy.
    assert.equal((await tab.post({ page: "q".repeat(22), seq: 1, msg: "Inc", handlerId: inc })).status, 200);
    assert.equal((await tab.post({ seq: 1, msg: "Inc", handlerId: inc })).status, 200);
    assert.equal((await tab.post({ seq: 1, msg: "Inc", handlerId: inc })).status, 200);
    assert.equal(modelOf(a).count, 6);
    assert.equal(sessionOf(a).outSeq, outSeq + 3, "a skipped copy takes no frame");
  });

  test("a page id that is not a short string is a 400, and the session is untouched", async () => {
    const a = freshApp();
    const tab = await openTab(a);
    for (const page of [7, "", "x".repeat(600), ["a"]]) {
      const resp = await tab.post({ page, seq: 1, msg: "Inc", handlerId: buttonId(tab.html, "\\+") });
      assert.equal(resp.status, 400, JSON.stringify(page).slice(0, 20));
    }
    assert.equal(modelOf(a).count, 0);
  });

  test("the session store holds each session's durable snapshot, updated after every change", async () => {
    const store = new MemorySessionStore();
    const a = freshApp({ store });
    const tab = await openTab(a);
    const id = sessionOf(a).id;
    assert.deepEqual((await store.load(id))?.outSeq, 0);
    await tab.post({ seq: 1, msg: "SetTitle", args: ["kept"], handlerId: TITLE, inputState: { [TITLE]: { value: "kept", seq: 1 } } });
    const snapshot = await store.load(id);
    assert.equal(snapshot?.outSeq, 1);
    assert.deepEqual(snapshot?.inputSeqs, [[TITLE, 1]]);
    assert.equal((snapshot?.model as FormModel).title, "KEPT");
  });
});
