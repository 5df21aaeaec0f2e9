// Events whose ids moved under them (docs/protocol.md#ids-that-move): the server maps a handler id
// and inputState ids named by the tree a tab had applied (lastAppliedSeq) onto its current tree,
// through the renames of the frames the tab had not applied yet; a handler that left gets 410
// handler-gone and nothing is processed.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { GONE, RenameLog, UNKNOWN } from "../../src/live/server/session/rename-log.ts";
import { shiftingApp } from "../support/shifting-app.ts";
import { openTab } from "../support/live-harness.ts";
import { idsIn } from "../support/dom.ts";

const made: ReturnType<typeof shiftingApp>[] = [];
after(() => made.forEach((a) => a.live.close()));
function fresh() {
  const a = shiftingApp();
  made.push(a);
  return a;
}

type Reply = { seq: number; ackInputs?: Record<string, number>; patches: { id: string; kids?: unknown[] }[] };
const TEXT_AT = (wrapper: number) => `r.${wrapper}#div.0#input`;
const REMOVE_AT = (row: number) => `r.${row}#div.1#button`;

test("an event naming a handler id from before a rename is applied to the renamed handler, and its inputs are acked under their new ids", async () => {
  const a = fresh();
  const tab = await openTab(a.live);
  assert.ok(idsIn(tab.html, "input").includes(TEXT_AT(3)), "the text input sits in the fourth root child");
  const add = await tab.post({ seq: 1, msg: "Add", handlerId: "r.8#div.0#button", lastAppliedSeq: 0 });
  const frame1 = (await add.json()) as Reply;
  assert.equal(frame1.seq, 1);
  // The log line at the top renames every sibling below it, as one chain in one kids patch.
  const kids = frame1.patches.find((p) => p.id === "r")?.kids;
  assert.deepEqual(kids?.slice(0, 4), [{ html: `<p svc-id="r.0#p" class="log">entry 1</p>` }, { keep: "r.0#div", id: "r.1#div" }, {
    keep: "r.1#div",
    id: "r.2#div",
  }, { keep: "r.2#div", id: "r.3#div" }]);

  // The tab typed before it applied frame 1: its ids are those of frame 0.
  const typed = await tab.post({
    seq: 2,
    msg: "SetText",
    args: ["abc"],
    handlerId: TEXT_AT(3),
    lastAppliedSeq: 0,
    inputState: { [TEXT_AT(3)]: { value: "abc", seq: 2 } },
  });
  assert.equal(typed.status, 200);
  const frame2 = (await typed.json()) as Reply;
  assert.equal(a.model().text, "abc");
  assert.deepEqual(frame2.ackInputs, { [TEXT_AT(4)]: 2 }, "acked under the id the tab will have applied by then");
  assert.deepEqual(frame2.patches, [], "the reported value is what the render shows: no patch");

  // Two more renames later, an id from frame 0 still reaches the same input.
  await tab.post({ seq: 3, msg: "Add", handlerId: "r.9#div.0#button", lastAppliedSeq: 2 });
  await tab.post({ seq: 4, msg: "Add", handlerId: "r.10#div.0#button", lastAppliedSeq: 3 });
  const late = await tab.post({
    seq: 5,
    msg: "SetText",
    args: ["abcd"],
    handlerId: TEXT_AT(3),
    lastAppliedSeq: 0,
    inputState: { [TEXT_AT(3)]: { value: "abcd", seq: 5 } },
  });
  assert.deepEqual(((await late.json()) as Reply).ackInputs, { [TEXT_AT(6)]: 5 });
  assert.equal(a.model().text, "abcd");

  // Without lastAppliedSeq (an older client) ids are read as they are: the old id is now a row's.
  const old = await tab.post({ seq: 6, msg: "SetText", args: ["x"], handlerId: TEXT_AT(3) });
  assert.equal(old.status, 410);
});

test("a removal above the input maps ids upwards, and a batch's entries are mapped after the frames its earlier entries produced", async () => {
  const a = fresh();
  const tab = await openTab(a.live);
  // Row 3 removed from the end: rows [1, 2]; the wrappers move up by one (r.3 -> r.2 ...).
  const removed = await tab.post({ seq: 1, msg: "Remove", args: [3], handlerId: REMOVE_AT(2), lastAppliedSeq: 0 });
  assert.equal(removed.status, 200);
  assert.deepEqual(a.model().rows, [1, 2]);
  assert.equal((await tab.post({ seq: 9, msg: "SetText", args: ["up"], handlerId: TEXT_AT(3), lastAppliedSeq: 0 })).status, 200);
  assert.equal(a.model().text, "up");
  // A batch built on frame 0: Add (shifts everything down), then the text input's value.
  const batch = await tab.post({
    lastAppliedSeq: 0,
    inputState: { [TEXT_AT(3)]: { value: "typed", seq: 3 } },
    batch: [{ seq: 10, msg: "Add", handlerId: "r.8#div.0#button" }, { seq: 11, msg: "SetText", args: ["typed"], handlerId: TEXT_AT(3) }],
  });
  assert.equal(batch.status, 204);
  assert.equal(a.model().text, "typed");
  assert.deepEqual(a.received.map(([m]) => m), ["Remove", "SetText", "Add", "SetText"]);
  assert.deepEqual(a.model().log, ["entry 1"]);
});

test("an event naming a removed handler gets 410 handler-gone and changes nothing; its removed inputs are not acked", async () => {
  const a = fresh();
  const tab = await openTab(a.live);
  // Frame 1 removes the last row (row 3, r.2#div); a click on its button sent before frame 1 arrived:
  await tab.post({ seq: 1, msg: "Remove", args: [3], handlerId: REMOVE_AT(2), lastAppliedSeq: 0 });
  assert.deepEqual(a.model().rows, [1, 2]);
  const gone = await tab.post({
    seq: 2,
    msg: "Remove",
    args: [3],
    handlerId: REMOVE_AT(2),
    lastAppliedSeq: 0,
    inputState: { [TEXT_AT(3)]: { value: "kept", seq: 2 } },
  });
  assert.equal(gone.status, 410);
  assert.equal(gone.headers.get("X-Svc-Status"), "handler-gone");
  assert.deepEqual(await gone.json(), {
    error: "handler_gone",
    message: "the element that sent this event is no longer in the page; nothing changed",
  });
  assert.deepEqual(a.received.map(([m]) => m), ["Remove"], "nothing dispatched");
  assert.equal(a.model().text, "");
  // The same click from a tab that had applied frame 1 names the next row's button: a different node.
  const other = await tab.post({
    seq: 3,
    msg: "Remove",
    args: [1],
    handlerId: REMOVE_AT(0),
    lastAppliedSeq: 1,
    inputState: { [TEXT_AT(3)]: { value: "stale", seq: 3 }, [TEXT_AT(2)]: { value: "now", seq: 3 } },
  });
  assert.equal(other.status, 200);
  const reply = (await other.json()) as Reply;
  assert.deepEqual(Object.keys(reply.ackInputs ?? {}), [TEXT_AT(2)], "only the input that is in the tree is acked");
});

test("the rename log maps chains within one patch simultaneously, patches in order, styles with their owner, and knows its horizon", () => {
  const log = new RenameLog();
  log.record(1, [{
    id: "r",
    kids: [{ html: "<p>" }, { keep: "r.0#div", id: "r.1#div" }, { keep: "r.1#div", id: "r.2#div" }, {
      keep: "r.1#div.~mq",
      id: "r.2#div.~mq",
    }, { keep: "r.#input:k" }],
  }]);
  assert.equal(log.resolve("r.0#div.3#b", 0), "r.1#div.3#b");
  assert.equal(log.resolve("r.1#div", 0), "r.2#div");
  assert.equal(log.resolve("r.1#div.~mq", 0), "r.2#div.~mq");
  assert.equal(log.resolve("r.#input:k", 0), "r.#input:k");
  assert.equal(log.resolve("r.2#div", 0), GONE, "a child not kept left");
  assert.equal(log.resolve("r", 0), "r");
  assert.equal(log.resolve("r.0#div", 1), "r.0#div", "frames already applied are not replayed");
  // A later patch of the same frame addresses the renamed parent.
  log.record(2, [{ id: "r", kids: [{ keep: "r.1#div", id: "r.0#div" }, { keep: "r.2#div", id: "r.1#div" }] }, {
    id: "r.0#div",
    kids: [{ keep: "r.0#div.3#b", id: "r.0#div.2#b" }],
  }, { id: "r.1#div", remove: true }]);
  assert.equal(log.resolve("r.0#div.3#b", 0), "r.0#div.2#b");
  assert.equal(log.resolve("r.1#div.4#i", 0), GONE);
  // Past its bound the log forgets its oldest frames and says so.
  for (let seq = 3; seq < 300; seq++) log.record(seq, [{ id: "r", kids: [{ keep: "r.0#div", id: "r.0#div" }] }]);
  assert.equal(log.resolve("r.0#div", 0), UNKNOWN);
  assert.equal(log.resolve("r.0#div", 299), "r.0#div");
});

test("a render asked for with ?since= lists in X-Svc-Moves what the frames since then did to ids, composed: one list per parent", async () => {
  const a = fresh();
  const tab = await openTab(a.live);
  await tab.post({ seq: 1, msg: "Add", handlerId: "r.8#div.0#button", lastAppliedSeq: 0 });
  await tab.post({ seq: 2, msg: "Remove", args: [3], handlerId: REMOVE_AT(3), lastAppliedSeq: 1 });
  const render = (since: string) =>
    a.live.fetch(new Request(`http://app.test/_svc/render?since=${since}`, { headers: { Cookie: tab.cookies, "X-Svc-Csrf": tab.csrf } }));
  const resp = await render("0");
  assert.equal(resp.status, 200);
  assert.equal(resp.headers.get("X-Svc-Seq"), "2");
  const moves = JSON.parse(resp.headers.get("X-Svc-Moves") ?? "null") as { parent?: string; kept?: [string, string][]; gone?: string }[];
  assert.equal(moves.length, 1, "both frames' lists of the root in one move");
  assert.equal(moves[0]!.parent, "r");
  const kept = new Map(moves[0]!.kept);
  assert.equal(kept.get("r.0#div"), "r.1#div", "a row moved down by the log line");
  assert.equal(kept.has("r.2#div"), false, "the removed row (r.2#div on the tab) is not kept");
  assert.equal(kept.get("r.3#div"), "r.3#div", "the text input's wrapper moved down, then up again");
  assert.deepEqual(JSON.parse((await render("2")).headers.get("X-Svc-Moves") ?? "null"), [], "nothing moved since the latest frame");
  assert.equal((await render("x")).headers.get("X-Svc-Moves"), null, "no moves without a seq");
});

test("composed moves stay as long as the lists however many frames passed, and replayed give every node the id the frames give it", () => {
  const first = Number(process.env["MOVES_SEED"] ?? Date.now() % 2 ** 31);
  const runs = process.env["MOVES_SEED"] ? 1 : Number(process.env["MOVES_RUNS"] ?? 50);
  for (let seed = first; seed < first + runs; seed++) {
    try {
      composedReplay(seed);
    } catch (error) {
      console.log(`composed moves: seed ${seed} failed (MOVES_SEED=${seed} to replay)`);
      throw error;
    }
  }
});

function composedReplay(seed: number): void {
  let state = seed >>> 0;
  const rand = (n: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
  // A root with unkeyed divs, each with two children; each frame inserts, removes or reverses
  // the root's divs (renaming the rest as a chain) and now and then a div's own children.
  type Node = { id: string; kids: Node[] };
  const div = (id: string): Node => ({ id, kids: [0, 1].map((k) => ({ id: `${id}.${k}#b`, kids: [] })) });
  let divs: Node[] = Array.from({ length: 8 }, (_, i) => div(`r.${i}#div`));
  const log = new RenameLog();
  const renameTo = (node: Node, to: string) => {
    const from = node.id;
    const walk = (n: Node) => {
      n.id = to + n.id.slice(from.length);
      n.kids.forEach(walk);
    };
    walk(node);
  };
  const all = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...all(n.kids)]);
  const before = new Map(all(divs).map((n) => [n, n.id]));
  // The tab's tree: a copy of the nodes as they are before the frames.
  type Held = { id: string; node: Node; kids: Held[] };
  const copy = (n: Node): Held => ({ id: n.id, node: n, kids: n.kids.map(copy) });
  const root: Held = { id: "r", node: { id: "r", kids: [] }, kids: divs.map(copy) };
  const frames = 250; // within the log's bound
  for (let seq = 1; seq <= frames; seq++) {
    const next = [...divs];
    const op = rand(3);
    if (op === 0 || next.length < 3) next.splice(rand(next.length + 1), 0, div("new"));
    else if (op === 1) next.splice(rand(next.length), 1);
    else next.reverse();
    const kids = next.map((n, i) => (n.id === "new" ? { html: "<div>" } : { keep: n.id, id: `r.${i}#div` }));
    const patches: { id: string; kids?: ({ html: string } | { keep: string; id: string })[]; remove?: true }[] = [{ id: "r", kids }];
    next.forEach((n, i) => renameTo(n, `r.${i}#div`));
    const inner = next[rand(next.length)]!;
    if (rand(8) === 0 && inner.kids.length > 0) {
      patches.push({ id: inner.kids[0]!.id, remove: true });
      inner.kids.shift();
    } else if (rand(4) === 0) {
      inner.kids.reverse();
      patches.push({ id: inner.id, kids: inner.kids.map((k, i) => ({ keep: k.id, id: `${inner.id}.${i}#b` })) });
      inner.kids.forEach((k, i) => renameTo(k, `${inner.id}.${i}#b`));
    }
    divs = next;
    log.record(seq, patches);
  }
  const moves = log.movesSince(0)!;
  const lists = moves.filter((move) => "parent" in move).length;
  assert.ok(lists <= 1 + 8, `one move per list the tab had: the root and its first divs (${lists})`);
  assert.ok(JSON.stringify(moves).length < 4_000, "bounded by the lists, not by the frames");
  // Replay on a copy of the tab's tree, as the client's move does: by id only the element a move
  // names (the first in document order), its children by structure; gone removes, a list renames
  // its kept children's subtrees and removes the others.
  const find = (at: Held, id: string): [Held, Held | undefined] | undefined => {
    if (at.id === id) return [at, undefined];
    for (const kid of at.kids) {
      if (kid.id === id) return [kid, at];
      const deeper = find(kid, id);
      if (deeper !== undefined) return deeper;
    }
    return undefined;
  };
  const rename = (at: Held, from: string, to: string) => {
    if (at.id === from || at.id.startsWith(`${from}.`)) at.id = to + at.id.slice(from.length);
    at.kids.forEach((kid) => rename(kid, from, to));
  };
  for (const move of moves) {
    if ("gone" in move) {
      const [node, parent] = find(root, move.gone) ?? [];
      if (node !== undefined && parent !== undefined) parent.kids = parent.kids.filter((kid) => kid !== node);
      continue;
    }
    const [parent] = find(root, move.parent) ?? [];
    if (parent === undefined) continue;
    const kept = new Map(move.kept);
    parent.kids = parent.kids.filter((kid) => {
      const to = kept.get(kid.id);
      if (to !== undefined && to !== kid.id) rename(kid, kid.id, to);
      return to !== undefined;
    });
  }
  const replayed = new Map<Node, string>();
  const collect = (at: Held) => {
    replayed.set(at.node, at.id);
    at.kids.forEach(collect);
  };
  collect(root);
  const now = new Map(all(divs).map((n) => [n, n.id]));
  for (const [node, id] of before) {
    assert.equal(replayed.get(node), now.get(node), `the node first called ${id}`);
    if (now.has(node)) assert.equal(log.resolve(id, 0), now.get(node));
  }
}

/** Event 1 of a tab: "abc" typed into the text input, whose wrapper is the page's fourth child (r.3) before any row is added. */
function typeAbcIntoTheText(tab: Awaited<ReturnType<typeof openTab>>) {
  return tab.post({
    seq: 1,
    msg: "SetText",
    args: ["abc"],
    handlerId: TEXT_AT(3),
    lastAppliedSeq: 0,
    inputState: { [TEXT_AT(3)]: { value: "abc", seq: 1 } },
  });
}

test("a session's stored input seqs follow their inputs through renames, and a render hands them to a tab catching up as X-Svc-Ack-Inputs", async () => {
  const a = fresh();
  const tab = await openTab(a.live);
  await typeAbcIntoTheText(tab);
  await tab.post({ seq: 2, msg: "Add", handlerId: "r.8#div.0#button", lastAppliedSeq: 1 });
  const session = [...a.live.sessions.all()][0]!;
  assert.deepEqual([...session.inputSeqs], [[TEXT_AT(4), 1]], "renamed with its input, not evicted");
  const resp = await a.live.fetch(
    new Request("http://app.test/_svc/render?since=1", { headers: { Cookie: tab.cookies, "X-Svc-Csrf": tab.csrf } }),
  );
  assert.deepEqual(JSON.parse(resp.headers.get("X-Svc-Ack-Inputs") ?? "null"), { [TEXT_AT(4)]: 1 });
});

test("a stream resumed from too far back gets a render with the moves and acks since its last frame, as a render asked for with ?since= does", async () => {
  const a = fresh();
  const tab = await openTab(a.live);
  await typeAbcIntoTheText(tab);
  for (let seq = 2; seq <= 21; seq++) await tab.post({ seq, msg: "Add", handlerId: `r.${seq + 6}#div.0#button`, lastAppliedSeq: seq - 1 });
  const firstEvent = async (lastEventId: string) => {
    const resp = await a.live.fetch(
      new Request("http://app.test/_svc/subscribe", { headers: { Cookie: tab.cookies, "Last-Event-ID": lastEventId } }),
    );
    const reader = resp.body!.getReader();
    let text = "";
    while (!/event: \w+\ndata: .*\n\n/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const [, event, data] = /event: (\w+)\ndata: (.*)\n\n/.exec(text)!;
    return { event, data: JSON.parse(data!) as { seq: number; html: string; since?: number; moves?: unknown[]; ackInputs?: unknown } };
  };
  const { event, data } = await firstEvent("1");
  assert.equal(event, "render", "frame 1 is no longer among the frames kept for resume");
  assert.equal(data.seq, 21);
  assert.equal(data.since, 1);
  assert.equal(data.moves?.length, 1, "one list, the root's, for 20 frames");
  const kept = new Map((data.moves as { kept: [string, string][] }[])[0]!.kept);
  assert.equal(kept.get("r.3#div"), "r.23#div", "the text input's wrapper, 20 log lines further down");
  assert.deepEqual(data.ackInputs, { [TEXT_AT(23)]: 1 });
  const unknown = await firstEvent("abc");
  assert.equal(unknown.event, "render");
  assert.equal(unknown.data.since, undefined, "no moves for an id the server never issued");
  assert.equal(unknown.data.moves, undefined);
});

test("an event body older than the session's log has its ids read as they are (docs/protocol.md#ids-that-move): a handler id that names nothing now gets 410 handler-gone and changes nothing, and a render since then comes without X-Svc-Moves", async () => {
  const a = fresh();
  const tab = await openTab(a.live);
  for (let seq = 1; seq <= 3; seq++) await tab.post({ seq, msg: "Add", handlerId: `r.${seq + 7}#div.0#button`, lastAppliedSeq: seq - 1 });
  // The log forgets those frames (as past its bound, or for a quiet session, src/live/server/registry/registry.ts sweep).
  const session = [...a.live.sessions.all()][0]!;
  session.forgetRenames();
  const textNow = TEXT_AT(6);
  const before = a.model();
  const old = await tab.post({
    seq: 4,
    msg: "SetText",
    args: ["typed long ago"],
    handlerId: TEXT_AT(3),
    lastAppliedSeq: 0,
    inputState: { [TEXT_AT(3)]: { value: "typed long ago", seq: 4 } },
  });
  assert.equal(old.status, 410);
  assert.equal(old.headers.get("X-Svc-Status"), "handler-gone");
  assert.equal(((await old.json()) as { error: string }).error, "handler_gone");
  assert.equal(a.model(), before, "nothing processed");
  assert.equal(session.inputSeqs.size, 0, "its input is not acked");
  // The id read as it is still names the input: applied.
  const same = await tab.post({ seq: 5, msg: "SetText", args: ["typed"], handlerId: textNow, lastAppliedSeq: 0 });
  assert.equal(same.status, 200);
  assert.equal(a.model().text, "typed");
  const render = (since: number) =>
    a.live.fetch(new Request(`http://app.test/_svc/render?since=${since}`, { headers: { Cookie: tab.cookies, "X-Svc-Csrf": tab.csrf } }));
  assert.equal((await render(0)).headers.get("X-Svc-Moves"), null, "the log does not reach back to frame 0");
  assert.deepEqual(JSON.parse((await render(4)).headers.get("X-Svc-Moves") ?? "null"), [], "it does to the latest frame");
});
