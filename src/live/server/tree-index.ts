/**
 * Lookups over a rendered tree that the session needs on every event: whether an element id is
 * in the tree (for acks and input-seq eviction) and the messages its handlers offer (to refuse a
 * posted message no handler names).
 *
 * Membership walks down the id's own path (findElement, src/live/tree.ts). The message set is
 * built once per tree, on the first event that needs it.
 */
import { LazyPart } from "../../ui/lazy-part.ts";
import { findElement, type LiveElement, type LiveTree } from "../tree.ts";

/** Whether an element with this id is in the tree. */
export function hasElement(tree: LiveTree, id: string): boolean {
  return findElement(tree, id) !== undefined;
}

const messageSets = new WeakMap<LiveTree, Set<string>>();

export function messagesOf(tree: LiveTree): ReadonlySet<string> {
  let messages = messageSets.get(tree);
  if (messages === undefined) {
    messages = new Set();
    collectMessages(tree.root, messages);
    messageSets.set(tree, messages);
  }
  return messages;
}

function collectMessages(el: LiveElement, into: Set<string>): void {
  const handlers = el.handlers;
  if (handlers !== undefined) { for (const record of Object.values(handlers)) if (record) into.add(record.msg); }
  // A lazy part noted the messages below it when it was placed, and is not built again for them (src/ui/lazy-part.ts).
  if (el instanceof LazyPart) { for (const msg of el.messagesBelow) into.add(msg); }
  else for (const kid of el.kids) if (kid.kind === "el") collectMessages(kid, into);
}
