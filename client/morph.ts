/**
 * Placing children and reconciling a subtree element by element (docs/protocol.md#patches,
 * kids; docs/protocol.md#client-rules 4).
 *
 * `place` puts a parent's children into a wanted order with few moves. A node that is moved is
 * removed and re-inserted, and a browser blurs a focused control it removes, so the nodes that
 * stay put are chosen as a longest increasing run of their current positions that always includes
 * the child holding focus; every other node is inserted before its wanted successor.
 *
 * `reconcile` turns an element's children into parsed markup while keeping the existing nodes that
 * match by svc-id (or, without an id, by tag in order; text by position). Matched elements get the
 * attribute differences through the authority rule and are reconciled recursively, so a dirty or
 * focused input inside keeps its node, value, focus, caret and composition. It serves an `html`
 * patch above a dirty input and the resync after a desync.
 */
import { ID_ATTR } from "../src/protocol/mod.ts";
import { tagOf } from "./dom.ts";

/** Writes attribute differences (name → value, "" removes) through the authority rule. */
export type AttrWriter = (el: Element, attrs: Record<string, string>) => void;
/** Writes a textarea's rendered text through the authority rule. */
export type TextareaWriter = (el: HTMLTextAreaElement, text: string) => void;

/** Indices (into `seq`) of one longest strictly increasing subsequence; `must` is always included. */
function increasingRun(seq: readonly number[], must: number): Set<number> {
  const pick = (idx: number[]): number[] => {
    const tails: number[] = [];
    const prev: number[] = new Array(idx.length).fill(-1);
    for (let k = 0; k < idx.length; k++) {
      const v = seq[idx[k] as number] as number;
      let lo = 0, hi = tails.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((seq[idx[tails[mid] as number] as number] as number) < v) lo = mid + 1;
        else hi = mid;
      }
      if (lo > 0) prev[k] = tails[lo - 1] as number;
      tails[lo] = k;
    }
    const out: number[] = [];
    for (let k = tails.length ? (tails[tails.length - 1] as number) : -1; k >= 0; k = prev[k] as number) out.push(idx[k] as number);
    return out;
  };
  const all = seq.map((_, i) => i);
  if (must < 0) return new Set(pick(all));
  const pivot = seq[must] as number;
  const before = all.filter((i) => i < must && (seq[i] as number) < pivot);
  const after = all.filter((i) => i > must && (seq[i] as number) > pivot);
  return new Set([...pick(before), must, ...pick(after)]);
}

/** Makes `wanted` the children of `parent`, in order; every other child is removed. */
export function place(parent: Element, wanted: readonly Node[]): void {
  const keep = new Set(wanted);
  for (const child of Array.from(parent.childNodes)) if (!keep.has(child)) parent.removeChild(child);
  const position = new Map<Node, number>();
  Array.from(parent.childNodes).forEach((child, i) => position.set(child, i));
  const present: number[] = []; // indices into wanted of nodes already in parent
  const seq: number[] = [];
  const active = parent.ownerDocument.activeElement;
  let must = -1;
  wanted.forEach((node, i) => {
    const at = position.get(node);
    if (at === undefined) return;
    if (active !== null && node.contains(active)) must = present.length;
    present.push(i);
    seq.push(at);
  });
  const stay = new Set<Node>();
  for (const k of increasingRun(seq, must)) stay.add(wanted[present[k] as number] as Node);
  let next: Node | null = null;
  for (let i = wanted.length - 1; i >= 0; i--) {
    const node = wanted[i] as Node;
    if (!stay.has(node)) parent.insertBefore(node, next);
    next = node;
  }
}

/** Reconciles the children of `parent` into `next` (parsed nodes of the same document). */
export function reconcile(parent: Element, next: readonly Node[], attrs: AttrWriter, textarea: TextareaWriter): void {
  const byId = new Map<string, Element>();
  const loose: Element[] = [];
  const texts: Node[] = [];
  for (const child of Array.from(parent.childNodes)) {
    if (child.nodeType === 1) {
      const id = (child as Element).getAttribute(ID_ATTR);
      if (id !== null) byId.set(id, child as Element);
      else loose.push(child as Element);
    } else texts.push(child);
  }
  const wanted: Node[] = [];
  for (const node of next) {
    if (node.nodeType !== 1) {
      const old = texts.shift();
      if (old !== undefined && old.nodeType === node.nodeType) {
        if (old.nodeValue !== node.nodeValue) old.nodeValue = node.nodeValue;
        wanted.push(old);
      } else wanted.push(node);
      continue;
    }
    const el = node as Element;
    const id = el.getAttribute(ID_ATTR);
    let old: Element | undefined;
    if (id !== null) {
      old = byId.get(id);
      byId.delete(id);
    } else {
      const at = loose.findIndex((c) => tagOf(c) === tagOf(el));
      if (at >= 0) old = loose.splice(at, 1)[0];
    }
    if (old !== undefined && tagOf(old) === tagOf(el)) {
      morphElement(old, el, attrs, textarea);
      wanted.push(old);
    } else wanted.push(el);
  }
  place(parent, wanted);
}

/** Turns `cur` into `next` (same tag) in place: attributes, then content. */
export function morphElement(cur: Element, next: Element, attrs: AttrWriter, textarea: TextareaWriter): void {
  const changes: Record<string, string> = {};
  let changed = false;
  for (const attr of Array.from(next.attributes)) {
    if (cur.getAttribute(attr.name) === attr.value) continue;
    // "" in an attrs map removes; an attribute present and empty (an option's value="") is set as it is.
    if (attr.value === "") cur.setAttribute(attr.name, "");
    else {
      changes[attr.name] = attr.value;
      changed = true;
    }
  }
  for (const attr of Array.from(cur.attributes)) {
    if (!next.hasAttribute(attr.name)) {
      changes[attr.name] = "";
      changed = true;
    }
  }
  if (changed) attrs(cur, changes);
  if (tagOf(cur) === "textarea") {
    const text = next.textContent ?? "";
    if ((cur as HTMLTextAreaElement).defaultValue !== text) textarea(cur as HTMLTextAreaElement, text);
    return;
  }
  reconcile(cur, Array.from(next.childNodes), attrs, textarea);
}
