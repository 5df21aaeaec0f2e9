/**
 * One live session: its model, last rendered tree, counters and running effects
 * (live-input-authority.md §Session counters, §Processing of each event).
 *
 * Every mutation (an event, a background completion, a subscription tick) runs under the session's
 * mutex and goes through `step`: dispatch, render, diff against the previous tree with the client's
 * reported values as the authority map, stamp the next outSeq, and send the frame to every open
 * SSE stream. An exception in the app's update or view is contained: the model, tree and counters
 * stay as they were, and the caller is told.
 */
import type { JsonValue } from "../../json.ts";
import { log } from "../../log.ts";
import { diff } from "../diff.ts";
import { LazyMemo, renderWithMemo } from "../../ui/lazy.ts";
import { recordLengthAfter } from "../flat.ts";
import { assignIds } from "../ids.ts";
import type { EventKind, Patch } from "../protocol.ts";
import { handlersOf, type LiveTree } from "../tree.ts";
import { type Cmd, type Dispatch, flatten } from "./commands.ts";
import { type LiveDefinition, splitUpdate } from "./definition.ts";
import type { EventEntry, InputReport } from "./body.ts";
import type { Frame, FrameSink } from "./frames.ts";
import { Mutex } from "./mutex.ts";
import { SubscriptionSet } from "./subscriptions.ts";
import { hasElement, messagesOf } from "./tree-index.ts";

/** What the registry does for a session's session commands (rotation, binding, ending). */
export interface SessionHost {
  /** Saves the session's durable snapshot after a change (the session store). */
  persist(session: LiveSession<unknown>): void;
  rotate(session: LiveSession<unknown>): void;
  bind(session: LiveSession<unknown>, userId: string): void;
  end(session: LiveSession<unknown>): void;
  /** The session has just rendered or used its tree; the host may free older sessions' trees. */
  usedTree(session: LiveSession<unknown>): void;
}

/** How many recent frames a session keeps for reconnecting streams. */
const RECENT_FRAMES = 16;
/** How many pages (tabs, reloads) of a session have their highest event seq remembered. */
const RECENT_PAGES = 16;

export type StepOutcome =
  | { readonly kind: "frame"; readonly frame: Frame }
  | { readonly kind: "unknown_message" }
  | { readonly kind: "app_error" }
  | { readonly kind: "ended" }
  /** An entry this page already sent (see `firstSight`): processed once, not again. */
  | { readonly kind: "duplicate" };

export type SessionInit = {
  readonly id: string;
  readonly now: number;
  /** Messages accepted even when no handler in the current render names them. */
  readonly extraMessages: ReadonlySet<string>;
};

export class LiveSession<Model> {
  id: string;
  model: Model;
  outSeq = 0;
  lastActive: number;
  readonly createdAt: number;
  ended = false;
  /** The bound user (std-auth.md §Live session and the revocation gate), canonical String id. */
  user: string | undefined;
  /** When the current binding (or the session) began, in ms: the gate's issuedAt. */
  boundAt: number;
  /** Per input id, the largest client seq seen; only rises; evicted when the input leaves the tree. */
  readonly inputSeqs: Map<string, number> = new Map();
  /** Per page id (one page load of the client), the highest event seq processed; the most recent pages only. */
  private readonly pageSeqs = new Map<string, number>();
  readonly streams: Set<FrameSink> = new Set();
  /** The last few frames, replayed to a stream that (re)connects after missing them. */
  readonly recent: Frame[] = [];
  readonly mutex: Mutex = new Mutex();
  private tree: LiveTree | undefined;
  /** The Ui.lazy results of the kept tree's render (src/ui/lazy.ts); dropped with the tree. */
  private memo: LazyMemo | undefined;
  private readonly subscriptions: SubscriptionSet;

  constructor(
    private readonly app: LiveDefinition<Model>,
    private readonly host: SessionHost,
    init: SessionInit,
    model: Model,
    private readonly extraMessages: ReadonlySet<string> = init.extraMessages,
  ) {
    this.id = init.id;
    this.model = model;
    this.lastActive = init.now;
    this.createdAt = init.now;
    this.boundAt = init.now;
    this.subscriptions = new SubscriptionSet((sub) => void this.background([sub.msg, ...sub.args]));
  }

  /** The tree the client shows: kept between events, rebuilt from the model after an idle drop. */
  currentTree(): LiveTree {
    if (this.tree === undefined) {
      this.tree = this.render(this.model);
      this.host.usedTree(this as LiveSession<unknown>);
    }
    return this.tree;
  }

  /** The view of `model` with ids, its Ui.lazy parts reused from the previous render where they can be. */
  private render(model: Model): LiveTree {
    // Kept until the next event, with a flat record, so that the diff then skips what did not change.
    return assignIds(renderWithMemo((this.memo ??= new LazyMemo()), () => this.app.view(model)), recordLengthAfter(this.tree));
  }

  /** Frees the rendered tree of an idle session; the next event re-renders it from the model. */
  dropTree(): void {
    this.tree = undefined;
    this.memo = undefined;
    this.recent.length = 0;
  }

  /**
   * Frees the rendered tree of a session that is not quiet but not among the most recently used
   * (see SessionRegistry.usedTree); its recent frames stay for a reconnecting stream.
   */
  releaseTree(): void {
    this.tree = undefined;
    this.memo = undefined;
  }

  get hasTree(): boolean {
    return this.tree !== undefined;
  }

  /** Starts the effects of the initial model (its subscriptions and init command). */
  start(cmd: Cmd | undefined): void {
    this.reconcileSubscriptions();
    this.run(cmd);
  }

  /**
   * Processes one event entry, steps 1-6 of §Processing of each event. `inputs` are the client's
   * dirty inputs (for a batch, they come with its first entry).
   */
  step(entry: EventEntry, inputs: ReadonlyMap<string, InputReport>, respond: boolean, page?: string): StepOutcome {
    if (this.ended) return { kind: "ended" };
    // A copy of an entry already processed is recognised first: its message may be gone from the
    // render that processing produced.
    if (!this.firstSight(page, entry.seq)) return { kind: "duplicate" };
    const prev = this.currentTree();
    if (!this.accepts(prev, entry)) return { kind: "unknown_message" };

    // Steps 1-3: stored seqs only rise; the reported values become the diff's authority map.
    const clientValues = new Map<string, string>();
    const raised = new Map<string, number>();
    for (const [id, report] of inputs) {
      clientValues.set(id, report.value);
      if ((this.inputSeqs.get(id) ?? -1) < report.seq) raised.set(id, report.seq);
    }
    // Steps 4-5.
    const result = this.apply(entry.msg, entry.args, prev, clientValues);
    if (result === undefined) return { kind: "app_error" };
    for (const [id, seq] of raised) this.inputSeqs.set(id, seq);

    // Step 6: acks for the reported inputs that existed in the previous tree.
    const ackInputs: Record<string, number> = {};
    let acked = false;
    for (const id of inputs.keys()) {
      const seq = this.inputSeqs.get(id);
      if (seq !== undefined && hasElement(prev, id)) {
        ackInputs[id] = seq;
        acked = true;
      }
    }
    this.evictInputsNotIn(this.currentTree());
    const frame = this.emit(result.patches, acked ? ackInputs : undefined, respond ? entry.seq : undefined);
    this.run(result.cmd);
    this.host.persist(this as LiveSession<unknown>);
    return { kind: "frame", frame };
  }

  /**
   * Whether this page's entry with this seq is new. A page sends its events one at a time in seq
   * order, except that a navigation batch or an unload beacon re-sends the event still in flight
   * (with its own seq) ahead of the navigation message, so that the message never overtakes the
   * value before it (G2) even when the two requests arrive in the other order. Whichever copy
   * arrives second is a seq this page has already had, and is not processed again. Without a page
   * id (an older client) or a seq, every entry is new.
   */
  private firstSight(page: string | undefined, seq: number): boolean {
    if (page === undefined || seq <= 0) return true;
    const highest = this.pageSeqs.get(page);
    if (highest !== undefined && seq <= highest) return false;
    this.pageSeqs.delete(page);
    this.pageSeqs.set(page, seq);
    if (this.pageSeqs.size > RECENT_PAGES) this.pageSeqs.delete(this.pageSeqs.keys().next().value as string);
    return true;
  }

  /** A message from a background completion or a subscription tick: its frame goes over SSE. */
  background(dispatch: Dispatch): Promise<void> {
    return this.mutex.run(() => {
      if (this.ended) return;
      const [msg, ...args] = dispatch;
      const result = this.apply(msg, args, this.currentTree(), undefined);
      if (result === undefined) return;
      this.evictInputsNotIn(this.currentTree());
      // A background change the render does not show sends nothing (and takes no seq).
      if (result.patches.length > 0) this.emit(result.patches, undefined, undefined);
      this.run(result.cmd);
      this.host.persist(this as LiveSession<unknown>);
    });
  }

  /** Stamps the next outSeq; every frame, reply or SSE, takes one (§Session counters). */
  emit(patches: readonly Patch[], ackInputs: Record<string, number> | undefined, respondingTo: number | undefined): Frame {
    this.outSeq += 1;
    // Fields in the wire's order; an absent one is left out, not written as undefined.
    const seq = this.outSeq;
    const frame: Frame = ackInputs
      ? respondingTo !== undefined ? { seq, ackInputs, respondingTo, patches } : { seq, ackInputs, patches }
      : respondingTo !== undefined ? { seq, respondingTo, patches } : { seq, patches };
    // Other tabs of the session get every frame; the tab that asked drops its duplicate by seq.
    for (const stream of this.streams) stream.send(frame);
    this.recent.push(frame);
    if (this.recent.length > RECENT_FRAMES) this.recent.shift();
    return frame;
  }

  /** Ends the session's running effects: timers stop, streams close, completions are dropped. */
  stop(): void {
    this.ended = true;
    this.subscriptions.stopAll();
    for (const stream of this.streams) stream.close();
    this.streams.clear();
    this.tree = undefined;
  }

  get subscriptionCount(): number {
    return this.subscriptions.size;
  }

  /** A posted message must be one a handler of the current render offers (or a declared extra). */
  private accepts(tree: LiveTree, entry: EventEntry): boolean {
    if (this.extraMessages.has(entry.msg)) return true;
    if (entry.handlerId !== undefined) {
      const handlers = handlersOf(tree, entry.handlerId);
      for (const kind in handlers) if (handlers[kind as EventKind]?.msg === entry.msg) return true;
      return false;
    }
    return messagesOf(tree).has(entry.msg);
  }

  private apply(msg: string, args: readonly JsonValue[], prev: LiveTree, clientValues: Map<string, string> | undefined) {
    try {
      const [model, cmd] = splitUpdate(this.app.update(this.model, msg, args));
      const next = model === this.model ? prev : this.render(model);
      const patches = next === prev ? [] : diff(prev, next, clientValues);
      this.model = model;
      this.tree = next;
      this.host.usedTree(this as LiveSession<unknown>);
      this.reconcileSubscriptions();
      return { patches, cmd };
    } catch (error) {
      log.error(`live.update failed msg=${JSON.stringify(msg)}: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
      return undefined;
    }
  }

  private evictInputsNotIn(tree: LiveTree): void {
    if (this.inputSeqs.size === 0) return;
    for (const id of this.inputSeqs.keys()) if (!hasElement(tree, id)) this.inputSeqs.delete(id);
  }

  private reconcileSubscriptions(): void {
    if (!this.app.subscriptions) return;
    try {
      this.subscriptions.reconcile(this.app.subscriptions(this.model));
    } catch (error) {
      log.error(`live.subscriptions failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Carries out a command: tasks in the background, session commands through the host. */
  private run(cmd: Cmd | undefined): void {
    for (const one of flatten(cmd)) {
      if (one.kind === "task") {
        one.run().then(
          (dispatch) => (dispatch && !this.ended ? this.background(dispatch) : undefined),
          (error: unknown) => log.error(`live.task failed: ${error instanceof Error ? error.message : String(error)}`),
        );
      } else if (one.kind === "rotate") this.host.rotate(this as LiveSession<unknown>);
      else if (one.kind === "bind") this.host.bind(this as LiveSession<unknown>, one.userId);
      else if (one.kind === "end") this.host.end(this as LiveSession<unknown>);
    }
  }
}
