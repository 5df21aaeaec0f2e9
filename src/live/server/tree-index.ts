/**
 * Lookups over a rendered tree that the session needs on every event: whether an element id is
 * in the tree (for acks and input-seq eviction) and the messages its handlers offer (to refuse a
 * posted message no handler names).
 *
 * Membership is answered by walking down the id's own path rather than by indexing every id of
 * every new tree: an event reports a handful of inputs, and a set of all ids per render cost more
 * than the diff itself (every id string hashed, hence flattened, plus a set kept per live tree).
 * An id is `<parent id>.<seg>`, and an injected style's id `<owner id>.~<pass>` sits beside its
 * owner in the parent's kids (src/live/ids.ts), so at each level the wanted id is either one of
 * the kids or below the one kid whose id prefixes it.
 */
import type { LiveElement, LiveTree } from "../tree.ts";

/** Whether an element with this id is in the tree. */
export function hasElement(tree: LiveTree, id: string): boolean {
  let el: LiveElement = tree.root;
  if (el.id === id) return true;
  for (;;) {
    let below: LiveElement | undefined;
    for (const kid of el.kids) {
      if (kid.kind !== "el") continue;
      const kidId = kid.id;
      if (kidId === id) return true;
      if (below === undefined && id.length > kidId.length && id.charCodeAt(kidId.length) === 46 /* . */ && id.startsWith(kidId)) below = kid;
    }
    if (below === undefined) return false;
    el = below;
  }
}

const messageSets = new WeakMap<LiveTree, Set<string>>();

export function messagesOf(tree: LiveTree): ReadonlySet<string> {
  let messages = messageSets.get(tree);
  if (messages === undefined) {
    messages = new Set();
    for (const handlers of tree.handlers.values()) {
      for (const record of Object.values(handlers)) if (record) messages.add(record.msg);
    }
    messageSets.set(tree, messages);
  }
  return messages;
}
