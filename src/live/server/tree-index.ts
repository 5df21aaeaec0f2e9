/**
 * Lookups over a rendered tree that the session needs on every event, computed once per tree:
 * the set of element ids (for acks and input-seq eviction) and the messages its handlers offer
 * (to refuse a posted message no handler names).
 */
import type { LiveElement, LiveTree } from "../tree.ts";

const idSets = new WeakMap<LiveTree, Set<string>>();
const messageSets = new WeakMap<LiveTree, Set<string>>();

export function elementIds(tree: LiveTree): ReadonlySet<string> {
  let ids = idSets.get(tree);
  if (ids === undefined) {
    ids = new Set();
    const stack: LiveElement[] = [tree.root];
    while (stack.length > 0) {
      const el = stack.pop()!;
      ids.add(el.id);
      for (const kid of el.kids) if (kid.kind === "el") stack.push(kid);
    }
    idSets.set(tree, ids);
  }
  return ids;
}

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
