/**
 * The live tree: a view tree with ids assigned (src/live/ids.ts), the form render and diff work
 * on. Ids, keys and injected style nodes are computed once per render, so the diff that runs on
 * every event only compares.
 */
import type { Handlers, MessageRecord, UiElement, UiRaw, UiText } from "../ui/node.ts";
import type { EventKind, Pass } from "./protocol.ts";

export interface LiveElement {
  readonly kind: "el";
  readonly tag: string;
  /** The node id (§Node id). */
  readonly id: string;
  /**
   * The id relative to the parent element in the DOM: `id === parent.id + "." + seg` (the root's
   * seg is "r"). Child matching compares segs, so it works under a renamed ancestor.
   */
  readonly seg: string;
  /** The sanitised key, or undefined (§Node id, key priority). */
  readonly key: string | undefined;
  /** A uniquely keyed element or an injected style: its id has no index. */
  readonly indexFree: boolean;
  /** Rendered attributes except svc-id and data-svc-hid, which derive from the id. */
  readonly attrs: Readonly<Record<string, string>>;
  /** Whether the element has handlers, hence a data-svc-hid attribute. */
  readonly hid: boolean;
  /** DOM children: view children, with each child's injected styles just before it. */
  readonly kids: readonly LiveNode[];
  /** Whether a kid is raw HTML (such children are only ever replaced as a whole, §Patch html). */
  readonly hasRaw: boolean;
  /** The `name` and `type` attributes (child matching compares them, §Child matching order). */
  readonly name: string | undefined;
  readonly type: string | undefined;
  /** The view element; undefined for an injected style. */
  readonly source: UiElement | undefined;
  /** The pass, for an injected style. */
  readonly pass: Pass | undefined;
}

export type LiveNode = LiveElement | UiText | UiRaw;

export interface LiveTree {
  readonly kind: "tree";
  readonly root: LiveElement;
  /** Handler node id → its handlers, for looking up a posted `handlerId`. */
  readonly handlers: ReadonlyMap<string, Handlers>;
}

/**
 * The message a posted `handlerId` and event kind dispatch in this render, or undefined when the
 * node is gone or does not listen to that event (a stale click after a re-render).
 */
export function handlerFor(tree: LiveTree, handlerId: string, kind: EventKind): MessageRecord | undefined {
  return tree.handlers.get(handlerId)?.[kind];
}
