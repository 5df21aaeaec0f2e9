/**
 * The pure core of a live session (docs/protocol.md#input-state): state, rendered
 * tree and one input in; the next state and tree, the patches and the app's command out. Nothing
 * here sends, stores, logs or starts anything: stamping the frame's outSeq, sending it to streams
 * and carrying out commands are the session's edge (src/live/server/session/session.ts), as snabbdom's
 * patch function does its DOM work through the DOM API it is given.
 *
 * The step is as pure as the app's `update` and `view` are: the render it is given may reuse
 * parts of earlier renders (src/ui/lazy.ts), which gives the same tree as a fresh render. The
 * state and tree passed in are never changed; a step that is refused or fails returns the state
 * to carry on with (a refused entry's page seq is still spent).
 */
import type { JsonValue } from "../../../json.ts";
import type { ClientValues, Diffed } from "../../diff/diff.ts";
import type { EventEntry, EventKind, InputReport, Patch } from "../../../protocol/mod.ts";
import { findElement, type LiveElement, type LiveTree } from "../../tree.ts";
import type { RenderProbe } from "../../probe.ts";
import type { Cmd, Dispatch } from "./commands.ts";
import { checkedUpdate, splitUpdate, type UpdateFunction } from "./definition.ts";
import type { SessionState } from "./state.ts";
import { inputsLeft, type TreeChange } from "./input-pruning.ts";
import { followRenames, type RenameLog, resolveEvent } from "./rename-log.ts";
import { VersionedMap } from "./versioned-map.ts";
import { collectMessages } from "../../render-state/lazy-part.ts";
import type { UiElement } from "../../../ui/node.ts";

/** How many pages (tabs, reloads) of a session have their highest event seq remembered. */
export const RECENT_PAGES = 16;

/** What a step needs of the app and of the session's renderer. */
export type StepContext<Model> = {
  readonly update: UpdateFunction<Model>;
  /** Renders the view of `model` with ids, and diffs it with the kept tree (a session's SessionRender, src/live/server/session/render.ts). */
  readonly renderer: {
    render(model: Model): LiveTree;
    diff(before: LiveTree, after: LiveTree, clientValues: ClientValues | undefined): Diffed;
    /** The test hook its renders and the session's id look-ups count into (src/live/probe.ts), if any. */
    readonly probe?: RenderProbe | undefined;
  };
  /** Messages accepted even when no handler in the current render names them. */
  readonly extraMessages: ReadonlySet<string>;
  /** What recent frames did to ids, to map an entry's ids onto the tree (docs/protocol.md#ids-that-move). */
  readonly renames?: RenameLog | undefined;
};

/** One event entry of a page, with the client's dirty inputs (a batch sends them with its first entry). */
export type EventInput = {
  readonly entry: EventEntry;
  readonly inputs: ReadonlyMap<string, InputReport>;
  /** The sending page's id, when the client sent one. */
  readonly page?: string | undefined;
  /** The last frame the client had applied (its ids are that tree's), when it said. */
  readonly lastAppliedSeq?: number | undefined;
  /**
   * The frame is no reply and goes to every stream (a batch's, docs/protocol.md#batches): its
   * patches carry the reported values too, since the page that reported them is going away and
   * the page that follows it shows what its render had (the browser takes that render before it
   * sends the unload beacon).
   */
  readonly toEveryStream?: boolean | undefined;
};

/** The model changed (or stayed) under a message: what the edge commits, sends and runs. */
export type Applied<Model> = {
  readonly kind: "applied";
  readonly state: SessionState<Model>;
  readonly tree: LiveTree;
  readonly patches: readonly Patch[];
  /** Acks for the reported inputs that were in the previous tree; undefined for none. */
  readonly ackInputs: Readonly<Record<string, number>> | undefined;
  readonly cmd: Cmd | undefined;
};

export type StepOutcome<Model> =
  | Applied<Model>
  /** An entry this page already sent (see `recordIfNew`): processed once, not again. */
  | { readonly kind: "duplicate" }
  | { readonly kind: "unknown_message"; readonly state: SessionState<Model> }
  /** The entry's handler is not in the tree, even with its id mapped (docs/protocol.md#ids-that-move). */
  | { readonly kind: "handler_gone"; readonly state: SessionState<Model> }
  /** The app's update or view threw: nothing of it is kept. */
  | { readonly kind: "app_error"; readonly state: SessionState<Model>; readonly error: unknown };

/** An event entry processed against the tree the client shows (docs/architecture.md, step 7). */
export function stepEvent<Model>(
  state: SessionState<Model>,
  tree: LiveTree,
  input: EventInput,
  ctx: StepContext<Model>,
): StepOutcome<Model> {
  // A copy of an entry already processed is recognised first: its message may be gone from the
  // render that processing produced.
  const pageSeqs = recordIfNew(state.pageSeqs, input.page, input.entry.seq);
  if (pageSeqs === undefined) return { kind: "duplicate" };
  const seen = pageSeqs === state.pageSeqs ? state : { ...state, pageSeqs };
  try {
    return stepNewEntry(seen, tree, input, ctx);
  } catch (error) {
    // Only the app's code throws here: the lookups of this event build lazy parts again from their
    // calls (src/live/render-state/lazy-part.ts), and a part's function that throws now, where it did not when the
    // part was rendered, fails the event as a throwing view does. Nothing of it is kept.
    return { kind: "app_error", state: seen, error };
  }
}

/** `stepEvent` for an entry seen for the first time. */
function stepNewEntry<Model>(seen: SessionState<Model>, tree: LiveTree, input: EventInput, ctx: StepContext<Model>): StepOutcome<Model> {
  // The client's ids name the tree after the frames it had applied: mapped onto this tree.
  const moved = ctx.renames === undefined ? input : resolveEvent(ctx.renames, input.entry, input.inputs, input.lastAppliedSeq);
  if (moved === undefined) return { kind: "handler_gone", state: seen };
  const { entry, inputs } = moved;
  // The handler's element, looked up once: it must be in the tree, and offer the message.
  const handler = entry.handlerId === undefined ? undefined : findElement(tree, entry.handlerId, ctx.renderer.probe);
  if (entry.handlerId !== undefined && handler === undefined) return { kind: "handler_gone", state: seen };
  if (!accepts(tree, entry, handler, ctx.extraMessages)) return { kind: "unknown_message", state: seen };

  // Stored seqs only rise; the reported values become the diff's authority map.
  const raised = raiseInputSeqs(seen.inputSeqs, inputs);
  const clientValues = new Map<string, string>();
  if (input.toEveryStream !== true) { for (const [id, report] of inputs) clientValues.set(id, report.value); }
  // The app's update and view run, and the new tree is diffed against the previous one.
  const changed = applyMessage({ state: seen, prev: tree, msg: entry.msg, args: entry.args, clientValues }, ctx);
  if (changed.kind === "app_error") return changed;
  // An input that left the new tree is forgotten.
  const inputSeqs = dropInputsThatLeft(
    renamed(raised, changed.patches),
    { prev: tree, tree: changed.tree, patches: changed.patches },
    { reported: inputs.keys(), probe: ctx.renderer.probe },
  );
  return {
    ...changed,
    state: inputSeqs === changed.state.inputSeqs ? changed.state : { ...changed.state, inputSeqs },
    // Acks for the reported inputs that existed in the previous tree.
    ackInputs: acksFor(inputs, raised, { prev: tree, probe: ctx.renderer.probe }),
  };
}

/** A message from a background completion or a subscription tick (no page, no reported values). */
export function stepMessage<Model>(
  state: SessionState<Model>,
  tree: LiveTree,
  dispatch: Dispatch,
  ctx: StepContext<Model>,
): Applied<Model> | AppError<Model> {
  const [msg, ...args] = dispatch;
  const changed = applyMessage({ state, prev: tree, msg, args, clientValues: undefined }, ctx);
  if (changed.kind === "app_error") return changed;
  let inputSeqs: typeof state.inputSeqs;
  try {
    inputSeqs = dropInputsThatLeft(
      renamed(state.inputSeqs, changed.patches),
      { prev: tree, tree: changed.tree, patches: changed.patches },
      { reported: [], probe: ctx.renderer.probe },
    );
  } catch (error) {
    // A lazy part's function that throws when built again (see stepEvent).
    return { kind: "app_error", state, error };
  }
  return inputSeqs === state.inputSeqs ? changed : { ...changed, state: { ...changed.state, inputSeqs } };
}

/** A message to apply to a state whose render is `prev`, with the client's reported values if any. */
type Message<Model> = {
  readonly state: SessionState<Model>;
  readonly prev: LiveTree;
  readonly msg: string;
  readonly args: readonly JsonValue[];
  readonly clientValues: ReadonlyMap<string, string> | undefined;
};

export type AppError<Model> = Extract<StepOutcome<Model>, { kind: "app_error" }>;

/** Update, render and diff: the model, tree and patches after the message, or the app's error. */
function applyMessage<Model>(
  { state, prev, msg, args, clientValues }: Message<Model>,
  ctx: StepContext<Model>,
): Applied<Model> | AppError<Model> {
  try {
    const [model, cmd] = splitUpdate(checkedUpdate(ctx.update(state.model, msg, args), msg));
    if (model === state.model) return { kind: "applied", state, tree: prev, patches: [], ackInputs: undefined, cmd };
    // The diff's tree keeps the old render's objects where nothing changed (src/live/diff/diff.ts).
    const { patches, tree } = ctx.renderer.diff(prev, ctx.renderer.render(model), clientValues);
    return { kind: "applied", state: { ...state, model }, tree, patches, ackInputs: undefined, cmd };
  } catch (error) {
    return { kind: "app_error", state, error };
  }
}

/**
 * The page seqs after this page's entry `seq`, or undefined when the entry is not new. A page
 * sends its events one at a time in seq order, except that a navigation batch or an unload beacon
 * re-sends the event still in flight (with its own seq) ahead of the navigation message, so that
 * the message never overtakes the value before it even when the two requests arrive in the other
 * order. Whichever copy arrives second is a seq this page has already had, and is not processed
 * again. Without a page id (an older client) or a seq, every entry is new (the seqs unchanged).
 */
export function recordIfNew(
  pageSeqs: ReadonlyMap<string, number>,
  page: string | undefined,
  seq: number,
): ReadonlyMap<string, number> | undefined {
  if (page === undefined || seq <= 0) return pageSeqs;
  const highest = pageSeqs.get(page);
  if (highest !== undefined && seq <= highest) return undefined;
  const next = new Map(pageSeqs);
  // The page moves to the most recent end; the least recent page goes past RECENT_PAGES.
  next.delete(page);
  next.set(page, seq);
  if (next.size > RECENT_PAGES) next.delete(next.keys().next().value as string);
  return next;
}

/**
 * A posted message must be one a handler of the current render offers (or a declared extra): the
 * entry's handler element's, when it names one (`handler`), else any element's.
 */
function accepts(tree: LiveTree, entry: EventEntry, handler: LiveElement | undefined, extraMessages: ReadonlySet<string>): boolean {
  if (extraMessages.has(entry.msg)) return true;
  if (entry.handlerId !== undefined) {
    const handlers = handler?.handlers;
    for (const kind in handlers) if (handlers[kind as EventKind]?.msg === entry.msg) return true;
    return false;
  }
  return messagesOf(tree).has(entry.msg);
}

/** The input seqs with each reported seq that is higher than the one stored: one new version per raised seq. */
function raiseInputSeqs(seqs: VersionedMap<string, number>, inputs: ReadonlyMap<string, InputReport>): VersionedMap<string, number> {
  let raised = seqs;
  for (const [id, report] of inputs) {
    if ((raised.get(id) ?? -1) < report.seq) raised = raised.with(id, report.seq);
  }
  return raised;
}

/**
 * The input seqs under the ids the patches gave their inputs (docs/protocol.md#ids-that-move): the
 * same version when no id moved; a new map when some did, which such an event (one that moved
 * elements) pays beside its diff.
 */
function renamed(seqs: VersionedMap<string, number>, patches: readonly Patch[]): VersionedMap<string, number> {
  const moved = followRenames(seqs, patches);
  return moved === seqs ? seqs : VersionedMap.of(moved);
}

/**
 * The input seqs of the inputs still in `tree`, the render `patches` turn `prev` into (the same map
 * when none left): only the ids the patches could have removed, and the ids the event reported,
 * are looked up (src/live/server/session/input-pruning.ts).
 */
function dropInputsThatLeft(
  seqs: VersionedMap<string, number>,
  change: TreeChange,
  { reported, probe }: LookedUp,
): VersionedMap<string, number> {
  let kept = seqs;
  for (const id of inputsLeft(seqs, change, reported, probe)) kept = kept.without(id);
  return kept;
}

/** The ids an event reported, and the test hook its look-ups count into (src/live/probe.ts), if any. */
type LookedUp = { readonly reported: Iterable<string>; readonly probe: RenderProbe | undefined };

/** The acks of the reported inputs that were in the tree the client showed (`prev`); undefined for none. */
function acksFor(
  inputs: ReadonlyMap<string, InputReport>,
  seqs: ReadonlyMap<string, number>,
  { prev, probe }: { readonly prev: LiveTree; readonly probe: RenderProbe | undefined },
): Record<string, number> | undefined {
  let acks: Record<string, number> | undefined;
  for (const id of inputs.keys()) {
    const seq = seqs.get(id);
    if (seq !== undefined && hasElement(prev, id, probe)) (acks ??= {})[id] = seq;
  }
  return acks;
}

/**
 * Lookups over a rendered tree that the session needs on every event: whether an element id is
 * in the tree (for acks and input-seq eviction) and the messages its handlers offer (to refuse a
 * posted message no handler names).
 *
 * Membership walks down the id's own path (findElement, src/live/tree.ts). The message set is
 * built once per tree, on the first event that needs it.
 */

/** Whether an element with this id is in the tree. */
export function hasElement(tree: LiveTree, id: string, probe?: RenderProbe): boolean {
  return findElement(tree, id, probe) !== undefined;
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
