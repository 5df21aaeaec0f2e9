/**
 * Which keyed siblings share their key (docs/protocol.md#node-ids): an element whose tag and key
 * another sibling also has keeps its index in its id (`3#tr:a`), a unique one does not (`#tr:a`).
 * The id walk asks this of every element with many keyed children, on every render
 * (src/live/ids.ts), so the answer is found the cheapest way that is still exact:
 *
 * - children that are those of a list found to share no key before, but for some places where the
 *   child is another one of the same tag and key (a row of a keyed list or of a `Ui.each` list
 *   that changed): the same tags and keys, so still none shared, checked object by object
 *   (`keysAsBefore`);
 * - else the keys compared, in a map.
 */
import type { UiElement, UiNode } from "../ui/node.ts";

/** No child shares its key with a sibling. */
export const NONE_SHARED = new Uint8Array(0);

/**
 * For each child, 1 when another sibling has the same tag and key, or NONE_SHARED when none does.
 * `keyed` children have a key, the first at `first`.
 */
export function sharedKeysOf(children: readonly UiNode[], first: number, keyed: number): Uint8Array {
  if (keysAsBefore(children, first, keyed)) return NONE_SHARED;
  const shared = sharedKeys(children);
  if (shared.indexOf(1) < 0) {
    noteNoneShared(children, first, keyed);
    return NONE_SHARED;
  }
  return shared;
}

/**
 * Lists of children found to share no key, by their first keyed child: a steady keyed list's first
 * row is the same object render after render (the session memo hands it back, src/live/render-state/element-log.ts).
 * Weak: a row gone is forgotten.
 */
const NONE_SHARED_LISTS = new WeakMap<object, { readonly children: readonly UiNode[]; readonly keyed: number }>();

function noteNoneShared(children: readonly UiNode[], first: number, keyed: number): void {
  const head = children[first];
  if (head !== undefined && head.kind === "el") NONE_SHARED_LISTS.set(head, { children, keyed });
}

/**
 * Whether `children` are, place by place, the children of a list found to share no key, or another
 * element of the same tag and key: then the tags and keys are the same ones, and none is shared.
 */
function keysAsBefore(children: readonly UiNode[], first: number, keyed: number): boolean {
  const before = NONE_SHARED_LISTS.get(children[first] as UiNode);
  if (before === undefined || before.keyed !== keyed || before.children.length !== children.length) return false;
  const old = before.children;
  for (let i = 0; i < children.length; i++) {
    const now = children[i] as UiNode;
    const was = old[i] as UiNode;
    if (now === was) continue;
    if (now.kind !== "el" || was.kind !== "el") {
      // A text or raw node in place of another is no key; one in place of an element, or the reverse, changes the keys.
      if (now.kind === "el" || was.kind === "el") return false;
      continue;
    }
    if (now.key !== was.key || now.tag !== was.tag) return false;
  }
  // The list read now is the one to compare the next render with: its replaced rows are the live ones.
  NONE_SHARED_LISTS.set(children[first] as UiElement, { children, keyed });
  return true;
}

/** The key of child `i`, when it is an element that has one. */
function keyAt(children: readonly UiNode[], i: number): string | undefined {
  const child = children[i] as UiNode;
  return child.kind === "el" ? child.key : undefined;
}

/** Whether another sibling has the same tag and key as child `i` (few keyed siblings). */
export function sharedByScan(children: readonly UiNode[], i: number, tag: string, key: string): boolean {
  for (let j = 0; j < children.length; j++) {
    if (j !== i && keyAt(children, j) === key && (children[j] as UiElement).tag === tag) return true;
  }
  return false;
}

/**
 * For each child, 1 when another sibling has the same tag and key (those keep their index,
 * docs/protocol.md#node-ids). Siblings of one tag are the usual case, so keys are looked up alone, without
 * building a `tag:key` string per child; a key held by siblings of different tags sends the
 * whole list to the general path.
 */
function sharedKeys(children: readonly UiNode[]): Uint8Array {
  const shared = new Uint8Array(children.length);
  const first = new Map<string, number>();
  for (let i = 0; i < children.length; i++) {
    const k = keyAt(children, i);
    if (k === undefined) continue;
    const j = first.get(k);
    if (j === undefined) {
      first.set(k, i);
    } else if ((children[j] as UiElement).tag === (children[i] as UiElement).tag) {
      shared[i] = shared[j] = 1;
    } else {
      return sharedKeysAcrossTags(children);
    }
  }
  return shared;
}

function sharedKeysAcrossTags(children: readonly UiNode[]): Uint8Array {
  const holders = new Map<string, number[]>();
  for (let i = 0; i < children.length; i++) {
    const k = keyAt(children, i);
    if (k === undefined) continue;
    const tagKey = `${(children[i] as UiElement).tag}:${k}`;
    const list = holders.get(tagKey);
    if (list === undefined) holders.set(tagKey, [i]);
    else list.push(i);
  }
  const shared = new Uint8Array(children.length);
  for (const list of holders.values()) if (list.length > 1) { for (const i of list) shared[i] = 1; }
  return shared;
}
