/**
 * Lookups over a rendered tree that the session needs on every event: whether an element id is
 * in the tree (for acks and input-seq eviction) and the messages its handlers offer (to refuse a
 * posted message no handler names).
 *
 * Membership walks down the id's own path (findElement, src/live/tree.ts). The message set is
 * built once per tree, on the first event that needs it.
 */
import { collectMessages } from "../../ui/lazy-part.ts";
import type { UiElement } from "../../ui/node.ts";
import { findElement, type LiveTree } from "../tree.ts";

/** Whether an element with this id is in the tree. */
export function hasElement(tree: LiveTree, id: string): boolean {
  return findElement(tree, id) !== undefined;
}

const messageSets = new WeakMap<LiveTree, Set<string>>();

export function messagesOf(tree: LiveTree): ReadonlySet<string> {
  let messages = messageSets.get(tree);
  if (messages === undefined) {
    messages = new Set();
    collectMessages(tree.root as unknown as UiElement, messages);
    messageSets.set(tree, messages);
  }
  return messages;
}
