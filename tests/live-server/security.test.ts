import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { buttonId, formAppPool } from "./apps.ts";
import { cookieHeader, openTab } from "../support/live-harness.ts";

// docs/protocol.md#sessions-and-cookies, docs/protocol.md#session-rotation states, docs/protocol.md#errors-and-statuses; the hostile-body corpus.
const freshApp = formAppPool(after);

async function snapshot(response: Response) {
  return { status: response.status, headers: [...response.headers].sort(), body: await response.text() };
}

describe("session lost", () => {
  test("no cookie, an unknown session and a body naming another session get byte-identical 404 session-lost replies", async () => {
    const a = freshApp();
    const mine = await openTab(a);
    const other = await openTab(a);
    const inc = { seq: 1, msg: "Inc" };
    const replies = [
      await a.fetch(
        new Request("http://app.test/_svc/event", { method: "POST", body: JSON.stringify(inc), headers: { "X-Svc-Csrf": mine.csrf } }),
      ),
      await a.fetch(
        new Request("http://app.test/_svc/event", {
          method: "POST",
          body: JSON.stringify(inc),
          headers: { Cookie: `svc_sid=${"A".repeat(43)}; __svc_csrf=${mine.csrf}`, "X-Svc-Csrf": mine.csrf },
        }),
      ),
      await mine.post({ ...inc, sessionId: other.handle }),
      await mine.post({ ...inc, sessionId: "not-a-session" }),
    ];
    const shapes = await Promise.all(replies.map(snapshot));
    assert.equal(shapes[0]!.status, 404);
    assert.deepEqual(shapes[0]!.headers.find(([name]) => name === "x-svc-status"), ["x-svc-status", "session-lost"]);
    for (const shape of shapes.slice(1)) assert.deepEqual(shape, shapes[0]);
    assert.equal([...a.sessions.all()].every((s) => s.model.count === 0), true, "no session was touched");
  });

  test("the SSE routes and the resync render require the session cookie", async () => {
    const a = freshApp();
    for (const path of ["/_svc/subscribe", "/_svc/sse", "/_svc/render"]) {
      const resp = await a.fetch(new Request(`http://app.test${path}`));
      assert.equal(resp.status, 404, path);
      assert.equal(resp.headers.get("X-Svc-Status"), "session-lost");
    }
  });

  test("a body sessionId equal to the session's public handle is accepted", async () => {
    const tab = await openTab(freshApp());
    const resp = await tab.post({ seq: 1, msg: "Inc", sessionId: tab.handle });
    assert.equal(resp.status, 200);
    assert.ok(!tab.html.includes(tab.cookies.split(";")[0]!.split("=")[1]!), "the page never shows the cookie's secret id");
  });
});

describe("rotation", () => {
  test("over https the rotated cookie an event reply sets is __Host- prefixed and Secure", async () => {
    const a = freshApp();
    const tab = await openTab(a, "https://app.test/");
    const resp = await tab.post({ seq: 1, msg: "SignIn", handlerId: buttonId(tab.html, "sign in") });
    assert.equal(resp.status, 200);
    const lines = resp.headers.getSetCookie();
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /^__Host-svc_sid=[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
  });

  test("the tab that rotated gets the new cookie and a ticket; the old id answers rotating for 60 s, then lost", async () => {
    let now = 1_000_000;
    const a = freshApp({ now: () => now });
    const tab = await openTab(a);
    const oldCookies = tab.cookies;
    const resp = await tab.post({ seq: 1, msg: "SignIn", handlerId: buttonId(tab.html, "sign in") });
    assert.equal(resp.status, 200);
    const ticket = resp.headers.get("X-Svc-Rotation");
    assert.ok(ticket && ticket.length >= 40);
    const newHandle = resp.headers.get("X-Svc-Sid");
    assert.ok(newHandle && newHandle !== tab.handle);
    const newCookies = cookieHeader(resp, oldCookies);
    assert.notEqual(newCookies, oldCookies);

    const withOld = () =>
      a.fetch(
        new Request("http://app.test/_svc/event", {
          method: "POST",
          body: JSON.stringify({ seq: 2, msg: "Inc" }),
          headers: { Cookie: oldCookies, "X-Svc-Csrf": tab.csrf },
        }),
      );
    const rotating = await withOld();
    assert.equal(rotating.status, 409);
    assert.equal(rotating.headers.get("X-Svc-Status"), "session-rotating");

    // The new cookie works; a body still naming the old handle is told the current one.
    const renamed = await a.fetch(
      new Request("http://app.test/_svc/event", {
        method: "POST",
        body: JSON.stringify({ seq: 2, msg: "Inc", sessionId: tab.handle }),
        headers: { Cookie: newCookies, "X-Svc-Csrf": tab.csrf },
      }),
    );
    assert.equal(renamed.status, 200);
    assert.equal(renamed.headers.get("X-Svc-Sid"), newHandle);

    now += 59_000;
    assert.equal((await withOld()).headers.get("X-Svc-Status"), "session-rotating");
    now += 1_000;
    const lost = await withOld();
    assert.equal(lost.status, 404);
    assert.equal(lost.headers.get("X-Svc-Status"), "session-lost");
  });

  test("only the holder of the ticket may exchange the old cookie for the new one, within the grace period", async () => {
    const a = freshApp();
    const tab = await openTab(a);
    const resp = await tab.post({ seq: 1, msg: "SignIn", handlerId: buttonId(tab.html, "sign in") });
    const ticket = resp.headers.get("X-Svc-Rotation")!;
    const exchange = (t: string | undefined) =>
      a.fetch(
        new Request("http://app.test/_svc/rotate", {
          method: "POST",
          headers: { Cookie: tab.cookies, "X-Svc-Csrf": tab.csrf, ...(t ? { "X-Svc-Rotation": t } : {}) },
        }),
      );
    for (const wrong of [undefined, "", `${ticket.slice(0, -1)}${ticket.endsWith("x") ? "y" : "x"}`]) {
      const refused = await exchange(wrong);
      assert.equal(refused.status, 404, String(wrong));
      assert.deepEqual(refused.headers.getSetCookie(), []);
    }
    const granted = await exchange(ticket);
    assert.equal(granted.status, 204);
    const fresh = cookieHeader(granted, tab.cookies);
    const after = await a.fetch(
      new Request("http://app.test/_svc/event", {
        method: "POST",
        body: JSON.stringify({ seq: 2, msg: "Inc" }),
        headers: { Cookie: fresh, "X-Svc-Csrf": tab.csrf },
      }),
    );
    assert.equal(after.status, 200);
  });
});

describe("CSRF", () => {
  test("a missing or mismatched X-Svc-Csrf header is refused with 403 before anything is processed", async () => {
    const a = freshApp();
    const tab = await openTab(a);
    for (const headers of [{ "X-Svc-Csrf": "" }, { "X-Svc-Csrf": "wrong" }, { "X-Svc-Csrf": `${tab.csrf}x` }]) {
      const resp = await tab.post({ seq: 1, msg: "Inc" }, headers);
      assert.equal(resp.status, 403);
      assert.equal(resp.headers.get("X-Svc-Status"), "csrf-failed");
    }
    const noHeader = await a.fetch(
      new Request("http://app.test/_svc/event", {
        method: "POST",
        body: JSON.stringify({ seq: 1, msg: "Inc" }),
        headers: { Cookie: tab.cookies },
      }),
    );
    assert.equal(noHeader.status, 403);
    const noCookie = await a.fetch(
      new Request("http://app.test/_svc/event", {
        method: "POST",
        body: JSON.stringify({ seq: 1, msg: "Inc" }),
        headers: { Cookie: tab.cookies.replace(/; __svc_csrf=[^;]+/, ""), "X-Svc-Csrf": tab.csrf },
      }),
    );
    assert.equal(noCookie.status, 403);
    assert.equal([...a.sessions.all()][0]!.model.count, 0);
  });

  test("the unload beacon carries the token in its body's csrf field, and only a batch may", async () => {
    const a = freshApp();
    const tab = await openTab(a);
    const beacon = (body: object) =>
      a.fetch(
        new Request("http://app.test/_svc/event", {
          method: "POST",
          body: JSON.stringify(body),
          headers: { Cookie: tab.cookies, "Content-Type": "text/plain;charset=UTF-8" },
        }),
      );
    assert.equal((await beacon({ csrf: tab.csrf, batch: [{ seq: 1, msg: "Inc" }] })).status, 204);
    assert.equal((await beacon({ csrf: "wrong", batch: [{ seq: 2, msg: "Inc" }] })).status, 403);
    assert.equal((await beacon({ csrf: tab.csrf, seq: 3, msg: "Inc" })).status, 403, "a single event must use the header");
    assert.equal([...a.sessions.all()][0]!.model.count, 1);
  });
});

describe("hostile bodies", () => {
  const corpus: Array<[string, BodyInit, number]> = [
    ["not JSON", "{not json", 400],
    ["a JSON array", "[1,2,3]", 400],
    ["a JSON string", '"Inc"', 400],
    ["null", "null", 400],
    ["empty", "", 400],
    ["msg missing", JSON.stringify({ seq: 1 }), 400],
    ["msg a number", JSON.stringify({ seq: 1, msg: 5 }), 400],
    ["msg empty", JSON.stringify({ seq: 1, msg: "" }), 400],
    ["msg huge", JSON.stringify({ seq: 1, msg: "I".repeat(10_000) }), 400],
    ["seq a string", JSON.stringify({ seq: "1", msg: "Inc" }), 400],
    ["seq negative", JSON.stringify({ seq: -1, msg: "Inc" }), 400],
    ["seq fractional", JSON.stringify({ seq: 1.5, msg: "Inc" }), 400],
    ["seq beyond 2^53", `{"seq":9007199254740993,"msg":"Inc"}`, 400],
    ["args an object", JSON.stringify({ seq: 1, msg: "Inc", args: { a: 1 } }), 400],
    ["args huge", JSON.stringify({ seq: 1, msg: "Inc", args: Array(100_000).fill(1) }), 400],
    ["handlerId a number", JSON.stringify({ seq: 1, msg: "Inc", handlerId: 3 }), 400],
    ["inputState an array", JSON.stringify({ seq: 1, msg: "Inc", inputState: [] }), 400],
    ["inputState value a number", JSON.stringify({ seq: 1, msg: "Inc", inputState: { "r.#input:title": { value: 5, seq: 1 } } }), 400],
    ["inputState seq unsafe", JSON.stringify({ seq: 1, msg: "Inc", inputState: { "r.#input:title": { value: "x", seq: 2 ** 60 } } }), 400],
    ["batch not an array", JSON.stringify({ batch: { seq: 1 } }), 400],
    ["batch entry bad", JSON.stringify({ batch: [{ seq: 1, msg: "Inc" }, { seq: "x", msg: "Inc" }] }), 400],
    ["sessionId a number", JSON.stringify({ seq: 1, msg: "Inc", sessionId: 42 }), 400],
    ["an unknown message", JSON.stringify({ seq: 1, msg: "DropTables" }), 400],
    ["a message the named handler does not send", JSON.stringify({ seq: 1, msg: "Boom", handlerId: "r.2#button" }), 400],
    ["a handler id that is not in the render", JSON.stringify({ seq: 1, msg: "Inc", handlerId: "r.42#button" }), 410],
    ["lastAppliedSeq a string", JSON.stringify({ seq: 1, msg: "Inc", lastAppliedSeq: "3" }), 400],
    ["lastAppliedSeq negative", JSON.stringify({ seq: 1, msg: "Inc", lastAppliedSeq: -1 }), 400],
    ["a body over 1 MiB", JSON.stringify({ seq: 1, msg: "Inc", args: ["x".repeat(1024 * 1024)] }), 413],
  ];

  test("every body in the corpus gets a clear 4xx and leaves model, seqs and stored input seqs unchanged", async () => {
    const a = freshApp();
    const tab = await openTab(a);
    const ok = await tab.post({
      seq: 1,
      msg: "SetTitle",
      args: ["kept"],
      handlerId: "r.#input:title",
      inputState: { "r.#input:title": { value: "kept", seq: 1 } },
    });
    assert.equal(ok.status, 200);
    const session = [...a.sessions.all()][0]!;
    const before = { model: structuredClone(session.model), outSeq: session.outSeq, inputs: [...session.inputSeqs] };
    for (const [name, body, status] of corpus) {
      const resp = await tab.postRaw(body);
      assert.equal(resp.status, status, name);
      if (status === 400) assert.ok(((await resp.json()) as { error: string }).error, name);
      if (status === 410) {
        assert.equal(resp.headers.get("X-Svc-Status"), "handler-gone", name);
        assert.equal(((await resp.json()) as { error: string }).error, "handler_gone", name);
      }
      assert.deepEqual({ model: session.model, outSeq: session.outSeq, inputs: [...session.inputSeqs] }, before, name);
    }
    const after = await tab.post({ seq: 2, msg: "Inc", handlerId: "r.2#button" });
    assert.equal(((await after.json()) as { seq: number }).seq, before.outSeq + 1, "the session carries on");
  });

  test("a declared Content-Length over the limit is refused without reading the body", async () => {
    const tab = await openTab(freshApp());
    const resp = await tab.postRaw("{}", { "Content-Length": String(5 * 1024 * 1024) });
    assert.equal(resp.status, 413);
  });

  test("a body of no declared length is read in whatever chunks it comes in, and refused once it passes the limit", async () => {
    const a = freshApp();
    const tab = await openTab(a);
    const streamed = (chunks: Uint8Array[]) =>
      a.fetch(
        new Request("http://app.test/_svc/event", {
          method: "POST",
          body: new ReadableStream<Uint8Array>({
            start(controller) {
              for (const chunk of chunks) controller.enqueue(chunk);
              controller.close();
            },
          }),
          headers: { Cookie: tab.cookies, "X-Svc-Csrf": tab.csrf, "Content-Type": "application/json" },
          duplex: "half",
        } as RequestInit),
      );
    // A character of three UTF-8 bytes cut between two chunks, in an argument the app ignores.
    const bytes = new TextEncoder().encode(JSON.stringify({ seq: 1, msg: "Inc", args: ["€"], handlerId: buttonId(tab.html, "\\+") }));
    const euro = bytes.indexOf(0xe2);
    const split = await streamed([bytes.slice(0, euro + 1), bytes.slice(euro + 1, euro + 2), bytes.slice(euro + 2)]);
    assert.equal(split.status, 200, await split.clone().text());
    assert.equal(((await split.json()) as { seq: number }).seq, 1);
    const whole = await streamed([new TextEncoder().encode(JSON.stringify({ seq: 2, msg: "Inc", handlerId: buttonId(tab.html, "\\+") }))]);
    assert.equal(whole.status, 200);
    const mib = new Uint8Array(512 * 1024).fill(0x20);
    assert.equal((await streamed([mib, mib, mib])).status, 413, "past the limit in its third chunk");
    assert.equal((await streamed([new Uint8Array(1024 * 1024 + 1).fill(0x20)])).status, 413, "past the limit in its first chunk");
  });
});

describe("idle sessions", () => {
  test("expire after the idle timeout: timers stop, streams close, the id is lost", async () => {
    let now = 5_000_000;
    const a = freshApp({ now: () => now, idleTimeoutMs: 60_000 });
    const tab = await openTab(a);
    await tab.post({ seq: 1, msg: "StartTicks", handlerId: buttonId(tab.html, "ticks") });
    const session = [...a.sessions.all()][0]!;
    assert.equal(session.subscriptionCount, 1);
    const stream = await tab.subscribe();
    now += 60_000;
    a.sessions.sweep();
    assert.equal(session.life, "ended");
    assert.equal(session.subscriptionCount, 0);
    assert.equal(a.sessions.size, 0);
    assert.equal(await stream.next(500), undefined, "the stream ended");
    assert.equal((await tab.post({ seq: 2, msg: "Inc" })).status, 404);
  });

  test("a quiet session frees its rendered tree and re-renders it on the next event", async () => {
    let now = 0;
    const a = freshApp({ now: () => now, treeIdleMs: 1_000 });
    const tab = await openTab(a);
    const session = [...a.sessions.all()][0]!;
    now += 1_000;
    a.sessions.sweep();
    assert.equal(session.hasTree, false);
    const resp = await tab.post({ seq: 1, msg: "Inc", handlerId: "r.2#button" });
    assert.deepEqual(((await resp.json()) as { patches: unknown }).patches, [{ id: "r.0#p", text: "count 1" }]);
  });

  /** The estimated bytes of one session's tree of the test form. */
  async function formTreeBytes(): Promise<number> {
    const probe = freshApp();
    await openTab(probe);
    const bytes = [...probe.sessions.all()][0]!.treeBytes;
    assert.ok(bytes > 0);
    return bytes;
  }

  test("past the byte budget the least recently used sessions give their trees up, and re-render them on their next event", async () => {
    const a = freshApp({ maxTreeBytes: 2.5 * (await formTreeBytes()) });
    const tabs = [await openTab(a), await openTab(a), await openTab(a)];
    const sessions = [...a.sessions.all()];
    for (const [k, tab] of tabs.entries()) {
      assert.equal((await tab.post({ seq: 1, msg: "Inc", handlerId: "r.2#button" })).status, 200, `tab ${k}`);
    }
    assert.deepEqual(sessions.map((s) => s.hasTree), [false, true, true], "the least recently used gave its tree up");
    assert.equal(a.sessions.keptTrees.sessions, 2);
    const resp = await tabs[0]!.post({ seq: 2, msg: "Inc", handlerId: "r.2#button" });
    assert.deepEqual(((await resp.json()) as { patches: unknown }).patches, [{ id: "r.0#p", text: "count 2" }]);
    assert.deepEqual(sessions.map((s) => s.hasTree), [true, false, true]);
  });

  test("a session whose tree alone is past the budget keeps it through its event, and its events stay correct", async () => {
    const a = freshApp({ maxTreeBytes: 1 });
    const [one, two] = [await openTab(a), await openTab(a)];
    for (let seq = 1; seq <= 3; seq++) {
      for (const tab of [one, two]) {
        const resp = await tab.post({ seq, msg: "Inc", handlerId: "r.2#button" });
        assert.deepEqual(((await resp.json()) as { patches: unknown }).patches, [{ id: "r.0#p", text: `count ${seq}` }]);
      }
      assert.deepEqual([...a.sessions.all()].map((s) => s.hasTree), [false, true], "only the session of the last event keeps a tree");
    }
  });

  test("by default 300 busy sessions of a small form all keep their trees", async () => {
    const a = freshApp();
    for (let i = 0; i < 300; i++) await openTab(a);
    assert.equal([...a.sessions.all()].filter((s) => s.hasTree).length, 300);
  });
});
