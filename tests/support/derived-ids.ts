/**
 * The derived-id check (docs/protocol.md#derived-ids), shared by the happy-dom property
 * (tests/live/derived-ids.property.test.ts) and its run in Chromium's parser
 * (tests/e2e/derived-ids.test.ts): the markup of a tree's page and of a patch's fragments, and
 * what the ids the client fills in over the parsed markup must be.
 */
import assert from "node:assert/strict";
import { render, renderElement, renderKids } from "../../src/live/render.ts";
import { childId, forEachElement, type LiveElement, type LiveTree } from "../../src/live/tree.ts";

/** One markup to parse as the children of a `contextTag` element, and the subtree it stands for. */
export type Case = {
  readonly what: string;
  readonly contextTag: string;
  readonly html: string;
  /** The id of the element whose children the nodes are, all of them (the page's root and fragments with a written root have none). */
  readonly parentId: string | undefined;
  readonly el: LiveElement;
  readonly id: string;
  readonly withRoot: boolean;
};

/** The cases of a tree: its page, and the fragments of patches on its element number `pick`: its children (html), itself (replace, or a kid entry). */
export function casesOf(tree: LiveTree, pick: number): Case[] {
  const all: { el: LiveElement; id: string; parent: LiveElement | undefined }[] = [];
  const parents = new Map<LiveElement, LiveElement>();
  forEachElement(tree, (el, id) => {
    for (const kid of el.kids) if (kid.kind === "el") parents.set(kid, el);
    all.push({ el, id, parent: parents.get(el) });
  });
  const { el, id, parent } = all[pick % all.length]!;
  const parentTag = parent?.tag ?? "body";
  return [
    { what: "the page", contextTag: "body", html: render(tree), parentId: undefined, el: tree.root, id: "r", withRoot: true },
    { what: `html patch of ${id}`, contextTag: el.tag, html: renderKids(el, id), parentId: id, el, id, withRoot: false },
    {
      what: `replace of ${id}`,
      contextTag: parentTag,
      html: renderElement(el, id, parentTag),
      parentId: undefined,
      el,
      id,
      withRoot: true,
    },
  ];
}

/** The ids of the server's tree below (and with) `el`, in document order, with the elements' numbers (mixed trees, else ""). */
function serverIds(el: LiveElement, id: string, withRoot: boolean): { id: string; n: string }[] {
  const out: { id: string; n: string }[] = withRoot ? [{ id, n: el.attrs[NUMBER] ?? "" }] : [];
  const walk = (parent: LiveElement, parentId: string) => {
    for (const kid of parent.kids) {
      if (kid.kind !== "el") continue;
      const kidId = childId(parentId, kid.seg);
      out.push({ id: kidId, n: kid.attrs[NUMBER] ?? "" });
      walk(kid, kidId);
    }
  };
  walk(el, id);
  return out;
}

/** The elements of `nodes` and below, in document order: their ids (null for none) and numbers. */
function clientIds(nodes: readonly Node[]): { id: string | null; n: string | null }[] {
  const out: { id: string | null; n: string | null }[] = [];
  const walk = (node: Node) => {
    if (node.nodeType !== 1) return;
    out.push({ id: (node as Element).getAttribute("svc-id"), n: (node as Element).getAttribute(NUMBER) });
    for (const kid of Array.from(node.childNodes)) walk(kid);
  };
  for (const node of nodes) walk(node);
  return out;
}

/** The attribute that numbers the elements of a mixed tree (tests/support/mixed-trees.ts). */
const NUMBER = "data-n";

/**
 * Where the parser keeps the view's tree, the client's ids (on `nodes`, filled in) are the
 * server's, in order (raw HTML's own elements take none). Where it may rearrange it (`moved`; the
 * elements are numbered), it moves, adds (an implicit `<tbody>`), copies (a formatting element
 * reopened) and drops (a `<th>` outside a table) elements, so what must hold is that an id never
 * names another element than the server's (an element the parser added may hold an id the server
 * has not), and that each of the server's elements the parser kept holds its id (on one of its
 * copies, when it was copied).
 */
export function agree(c: Case, nodes: readonly Node[], moved: boolean): void {
  const want = serverIds(c.el, c.id, c.withRoot);
  const got = clientIds(nodes);
  if (!moved) return assert.deepEqual(got.filter((g) => g.id !== null).map((g) => g.id), want.map((w) => w.id), c.what);
  const numberOf = new Map(want.map((w) => [w.id, w.n]));
  const held = new Map<string, Set<string | null>>();
  for (const { id, n } of got) {
    if (n !== null) held.set(n, (held.get(n) ?? new Set()).add(id));
    if (id === null) continue;
    const wanted = numberOf.get(id);
    // Injected styles carry no number.
    if (wanted !== undefined && wanted !== "") assert.equal(n, wanted, `${c.what}: ${id} names element ${n}, not ${wanted}`);
  }
  for (const { id, n } of want) {
    if (n === "") continue;
    const ids = held.get(n);
    if (ids !== undefined) assert.ok(ids.has(id), `${c.what}: element ${n} holds ${[...ids].join(", ")}, not ${id}`);
  }
}
