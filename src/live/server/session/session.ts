/**
 * One live session at the edge: where the pure step (src/live/server/session/step.ts) meets the
 * world (docs/protocol.md#sequence-numbers, #input-state, #event-reply).
 *
 * Every change (an event, a background completion, a subscription tick) runs under the session's
 * mutex: the step computes the next state, tree and patches; this class then keeps them, stamps the
 * next outSeq on the frame, sends it to every open stream, carries out the app's command and has
 * the host persist the new state. An exception in the app's update or view is contained: the
 * state and tree stay as they were, and the caller is told.
 *
 * The session's durable state is one value (`state`, src/live/server/session/state.ts); a session
 * restored elsewhere from a snapshot of it starts its effects again with `start`.
 */
import type { RenderProbe } from "../../probe.ts";
import { log } from "../../../log.ts";
import type { LiveTree } from "../../tree.ts";
import type { InputAcks, Move } from "../../../protocol/mod.ts";
import { type Cmd, type Dispatch, flatten } from "./commands.ts";
import type { RunningDefinition } from "./definition.ts";
import type { Frame, FrameSink } from "../streams/sse-wire.ts";
import { Mutex } from "./mutex.ts";
import { logAppError, reportsToPage, withCodeFrame } from "./development.ts";
import { frameOf, type FrameParts, SessionFrames } from "../streams/session-frames.ts";
import { SessionRender } from "./render.ts";
import { enterEvent, leaveEvent } from "../../render-state/lazy-part.ts";
import { forNewPage, type SessionState, withNextFrame, withUser } from "./state.ts";
import { type Applied, type EventInput, type StepContext, stepEvent, stepMessage, type StepOutcome } from "./step.ts";
import { SubscriptionSet } from "./subscriptions.ts";
import { RenameLog } from "./rename-log.ts";
import type { RenderIds } from "../streams/resume.ts";
import type { EventOutcome } from "./outcome.ts";

/** What the registry does for a session's session commands (rotation, binding, ending). */
export interface SessionHost<Model> {
  /** Saves the session's durable snapshot after a change (the session store). */
  persist(session: LiveSession<Model>): void;
  /**
   * Makes a change durable before its frame goes out (docs/deployment.md#several-replicas): `true`
   * when there is nothing to wait for (one process), else the shared store's fenced save, which
   * resolves to false when another replica has taken the session over: then nothing of the change
   * is kept, sent or run.
   */
  durable(session: LiveSession<Model>, state: SessionState<Model>, frame: Frame | undefined): true | Promise<boolean>;
  /** The test hook the session's renders count into (src/live/probe.ts); none: nothing is counted. */
  readonly renderProbe?: RenderProbe | undefined;
  /** The session was taken over by another replica: this copy stops and is forgotten here. */
  moved(session: LiveSession<Model>): void;
  /** A task's message for a session that moved: applied where the session now is. */
  redeliver(session: LiveSession<Model>, dispatch: Dispatch): void;
  rotate(session: LiveSession<Model>): void;
  bind(session: LiveSession<Model>, userId: string): void;
  end(session: LiveSession<Model>): void;
  /** The session has just rendered or used its tree; the host may free older sessions' trees. */
  usedTree(session: LiveSession<Model>): void;
}

/** One event entry as the session takes it: the entry, the client's dirty inputs, its page and the frame it had applied. */
export type SessionEvent = EventInput;

export type SessionInit<Model> = {
  readonly id: string;
  readonly now: number;
  /** Messages accepted even when no handler in the current render names them. */
  readonly extraMessages: ReadonlySet<string>;
  /** The state it starts from: a new one, or the one a takeover loaded. */
  readonly state: SessionState<Model>;
  /** The streams already open for this session on this replica (it was held by another); none by default. */
  readonly frames?: SessionFrames;
};

/**
 * Where a session's copy here stands. The two ways a copy stops mean opposite things to the tab,
 * so they are two states, never a flag on the other:
 * - "live": this replica serves the session;
 * - "ended": the session is over for good (sign-out, `/_svc/end`, a revoke or disable, expiry,
 *   eviction): a reply about it clears its cookies (docs/auth.md#live-sessions-and-the-gate);
 * - "moved": the session carries on at another replica (taken over, drained): this copy stopped,
 *   but the session did not; a reply about it carries its frame and leaves the cookies alone
 *   (docs/deployment.md#late-notices).
 */
export type SessionLife = "live" | "ended" | "moved";

export class LiveSession<Model> {
  id: string;
  /** The durable state: replaced by each step, never changed in place. */
  state: SessionState<Model>;
  lastActive: number;
  readonly createdAt: number;
  /** Where this copy stands (SessionLife); only `stop` changes it. */
  private lifeState: SessionLife = "live";
  readonly frames: SessionFrames;
  readonly mutex: Mutex = new Mutex();
  /** What recent frames did to ids, to map an event's ids onto the current tree. */
  private readonly renames: RenameLog;
  private readonly rendered: SessionRender<Model>;
  /** Messages accepted even when no handler in the current render names them. */
  private readonly extraMessages: ReadonlySet<string>;
  /** The model's running subscriptions; made when the app first asks for one. */
  private subscriptions: SubscriptionSet | undefined;

  constructor(
    private readonly app: RunningDefinition<Model>,
    private readonly host: SessionHost<Model>,
    init: SessionInit<Model>,
  ) {
    this.frames = init.frames ?? new SessionFrames();
    this.id = init.id;
    this.state = init.state;
    this.renames = new RenameLog(init.state.outSeq);
    this.lastActive = init.now;
    this.createdAt = init.now;
    this.rendered = new SessionRender(app.view, { probe: host.renderProbe });
    this.extraMessages = init.extraMessages;
  }

  /**
   * What a step needs of the session, made for each step without a closure: an idle session keeps
   * none of it (docs/deployment.md#memory).
   */
  private stepContext(): StepContext<Model> {
    return { update: this.app.update, renderer: this.rendered, extraMessages: this.extraMessages, renames: this.renames };
  }

  /** Where this copy stands: live here, ended for good, or moved to another replica. */
  get life(): SessionLife {
    return this.lifeState;
  }
  /** Whether this replica serves the session now (neither ended nor moved). */
  get isLive(): boolean {
    return this.lifeState === "live";
  }

  get model(): Model {
    return this.state.model;
  }
  get outSeq(): number {
    return this.state.outSeq;
  }
  get inputSeqs(): ReadonlyMap<string, number> {
    return this.state.inputSeqs;
  }
  /** The bound user (docs/auth.md#live-sessions-and-the-gate), canonical String id. */
  get user(): string | undefined {
    return this.state.user;
  }
  /** When the current binding (or the session) began, in ms: the gate's issuedAt. */
  get boundAt(): number {
    return this.state.boundAt;
  }
  get streams(): ReadonlySet<FrameSink> {
    return this.frames.streams;
  }
  /** How many SSE streams the session has open here. */
  get streamCount(): number {
    return this.frames.streamCount;
  }

  /** Binds the session to `user` from `boundAt` on (the caller decides about rotation). */
  bindUser(user: string, boundAt: number): void {
    this.state = withUser(this.state, user, boundAt);
  }

  /** A new page of the session loads: its client counts event seqs from 1 again. */
  startPage(): void {
    this.state = forNewPage(this.state);
  }

  /** The tree the client shows: kept between events, rendered from the model after a release. */
  currentTree(): LiveTree {
    let tree = this.rendered.kept;
    if (tree === undefined) {
      this.rendered.keep(tree = this.rendered.render(this.state.model));
      this.host.usedTree(this);
    }
    return tree;
  }

  /** What the frames after `since` did to ids, for a render a tab catches up from; undefined when not kept. */
  movesSince(since: number): Move[] | undefined {
    return this.renames.movesSince(since);
  }

  /** The session's stored input seqs, the acks a stream's render carries; undefined for none. */
  ackInputs(): InputAcks | undefined {
    return this.state.inputSeqs.size === 0 ? undefined : Object.fromEntries(this.state.inputSeqs);
  }

  /** The moves and acks a stream's render carries (docs/protocol.md#resume), read when it is written: the session's own methods. */
  get renderIds(): RenderIds {
    return this;
  }

  /** Forgets what past frames did to ids (a quiet session's): older ids are then taken as they are. */
  forgetRenames(): void {
    this.renames.reset(this.state.outSeq);
  }

  /** Frees the rendered tree (an idle session's, or one of the least recently used); re-rendered on demand. */
  releaseTree(): void {
    this.rendered.release();
  }

  get hasTree(): boolean {
    return this.rendered.kept !== undefined;
  }

  /** About how many bytes of heap the kept tree costs (0 without one): what the registry's tree budget counts. */
  get treeBytes(): number {
    return this.rendered.keptBytes;
  }

  /** Starts the effects of the state's model (its subscriptions) and the init command. */
  start(cmd: Cmd | undefined): void {
    this.reconcileSubscriptions();
    this.run(cmd);
  }

  /**
   * Processes one event entry (docs/protocol.md#input-state). `event.inputs` are the client's
   * dirty inputs (for a batch, they come with its first entry); its ids are those of the tree after
   * frame `event.lastAppliedSeq`, when the client said which. `reply`: the frame is the request's
   * reply, names the entry's seq and is not sent again to the page's own stream.
   */
  step(event: SessionEvent, { reply }: { readonly reply: boolean }): EventOutcome | Promise<EventOutcome> {
    if (this.lifeState !== "live") return this.lifeState === "moved" ? MOVED : ENDED;
    // What this event's handler check builds of a part stays for its diff (src/live/render-state/lazy-part.ts).
    const outer = enterEvent();
    let stepped: StepOutcome<Model>;
    try {
      stepped = stepEvent(this.state, this.currentTree(), reply ? event : { ...event, toEveryStream: true }, this.stepContext());
    } finally {
      leaveEvent(outer);
    }
    switch (stepped.kind) {
      case "duplicate":
        return { kind: "duplicate", outSeq: this.state.outSeq };
      case "unknown_message":
      case "handler_gone":
        this.state = stepped.state;
        return { kind: stepped.kind };
      case "app_error": {
        this.state = stepped.state;
        const report = logAppError(event.entry.msg, stepped.error);
        if (!reportsToPage(this.app)) return { kind: "app_error", logId: report.logId, report: undefined };
        return withCodeFrame(report, stepped.error).then((framed) => ({ kind: "app_error", logId: report.logId, report: framed }));
      }
      case "applied": {
        const kept = this.keepDurably(stepped, {
          patches: stepped.patches,
          ackInputs: stepped.ackInputs,
          respondingTo: reply ? event.entry.seq : undefined,
        }, reply ? event.page : undefined);
        if (!(kept instanceof Promise)) return this.framed(kept.frame!);
        return kept.then((done) => (done === undefined ? MOVED : this.framed(done.frame!)));
      }
    }
  }

  /** An applied entry's outcome: its frame, and whether the app ended the session with it. */
  private framed(frame: Frame): EventOutcome {
    // A copy dropped because the session moved on (keptMoving) did not end the session.
    return { kind: "frame", frame, endsSession: this.lifeState === "ended" };
  }

  /**
   * A message from a background completion or a subscription tick: its frame goes over SSE.
   * Resolves to false when the session had moved to another replica (nothing was kept).
   */
  background(dispatch: Dispatch): Promise<boolean> {
    return this.mutex.run(() => {
      if (this.lifeState !== "live") return true;
      const outer = enterEvent();
      let stepped: StepOutcome<Model>;
      try {
        stepped = stepMessage(this.state, this.currentTree(), dispatch, this.stepContext());
      } finally {
        leaveEvent(outer);
      }
      if (stepped.kind === "app_error") {
        logAppError(dispatch[0], stepped.error);
        return true;
      }
      // A background change the render does not show sends nothing (and takes no seq).
      const parts = stepped.patches.length > 0 ? { patches: stepped.patches, ackInputs: undefined, respondingTo: undefined } : undefined;
      const kept = this.keepDurably(stepped, parts);
      return kept instanceof Promise ? kept.then((done) => done !== undefined) : true;
    });
  }

  /**
   * Keeps an applied step: durable first (the host's save, when the store is shared), then kept
   * here, sent and its command run. A save refused because the session moved keeps nothing.
   * Without a frame (`parts` undefined) the state still changes, and no seq is taken. `repliedTo`:
   * the page the frame is the reply to, whose stream does not get it again (one copy per tab).
   */
  private keepDurably(applied: Applied<Model>, parts: FrameParts | undefined, repliedTo?: string): Kept | Promise<Kept | undefined> {
    const state = parts === undefined ? applied.state : withNextFrame(applied.state);
    const frame = parts === undefined ? undefined : frameOf(state.outSeq, parts);
    const saved = this.host.durable(this, state, frame);
    if (saved === true) return this.keep(applied, state, frame, repliedTo);
    return saved.then((ok) => {
      if (this.lifeState === "moved") return ok ? this.keptMoving(applied, frame, repliedTo) : undefined;
      if (this.lifeState === "ended") return undefined;
      if (!ok) {
        this.host.moved(this);
        return undefined;
      }
      return this.keep(applied, state, frame, repliedTo);
    });
  }

  private keep(applied: Applied<Model>, state: SessionState<Model>, frame: Frame | undefined, repliedTo: string | undefined): Kept {
    this.commit({ ...applied, state });
    if (frame !== undefined) {
      this.renames.record(frame.seq, frame.patches);
      this.frames.send(frame, repliedTo);
    }
    this.afterChange(applied.cmd);
    return { frame };
  }

  /**
   * A change the store accepted while the copy here was being dropped (another replica took the
   * session just after this save committed): the change is the session's, saved before that
   * takeover read it, so its frame still goes to this replica's streams (which stay, listening
   * for the new owner's frames) and answers the event (docs/deployment.md#late-notices). Its
   * tasks run, their results going to the new owner as a moved session's do; a session command
   * (rotate, bind, end) acts on a copy held here, which is gone, so it is logged, not run.
   */
  private keptMoving(applied: Applied<Model>, frame: Frame | undefined, repliedTo: string | undefined): Kept {
    if (frame !== undefined) this.frames.send(frame, repliedTo);
    const commands = flatten(applied.cmd);
    for (const one of commands) if (one.kind === "task") this.run(one);
    for (const one of commands) if (one.kind !== "task") log.warn(`live.session moved while saving: its ${one.kind} command was not run`);
    return { frame };
  }

  /** Stamps the next outSeq on a frame and sends it; every frame, reply or SSE, takes one. */
  emit(parts: FrameParts): Frame {
    this.state = withNextFrame(this.state);
    const frame = frameOf(this.state.outSeq, parts);
    this.renames.record(frame.seq, frame.patches);
    this.frames.send(frame);
    return frame;
  }

  /**
   * Ends the session's running effects: timers stop, completions are dropped, and the streams
   * close: with the session-lost signal when the session is gone ("lost": ended, evicted,
   * expired), plainly when it carries on elsewhere ("moved": drained, or taken over, when the
   * streams stay with this replica's bus listener instead and `keepStreams` is set).
   */
  stop(how: "lost" | "moved" = "lost", { keepStreams }: { readonly keepStreams: boolean } = { keepStreams: false }): void {
    // Only a live copy changes state: one that moved stays moved, whatever stops it again, as the
    // session it was a copy of lives on at another replica.
    if (this.lifeState === "live") this.lifeState = how === "moved" ? "moved" : "ended";
    this.subscriptions?.stopAll();
    if (!keepStreams) this.frames.closeAll({ lost: how === "lost" });
    this.rendered.release();
  }

  get subscriptionCount(): number {
    return this.subscriptions?.size ?? 0;
  }

  /** Keeps what a step applied: its state and tree; the model's subscriptions follow it. */
  private commit(applied: Applied<Model>): void {
    this.state = applied.state;
    this.rendered.keep(applied.tree);
    this.host.usedTree(this);
    this.reconcileSubscriptions();
  }

  /** After a change is kept and sent: the app's command runs, the new state is persisted. */
  private afterChange(cmd: Cmd | undefined): void {
    this.run(cmd);
    this.host.persist(this);
  }

  private reconcileSubscriptions(): void {
    if (!this.app.subscriptions) return;
    try {
      const wanted = this.app.subscriptions(this.state.model);
      if (wanted.length === 0 && this.subscriptions === undefined) return;
      this.subscriptions ??= new SubscriptionSet((sub) => void this.background([sub.msg, ...sub.args]));
      this.subscriptions.reconcile(wanted);
    } catch (error) {
      log.error(`live.subscriptions failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Carries out a command: tasks in the background, session commands through the host. */
  private run(cmd: Cmd | undefined): void {
    for (const one of flatten(cmd)) {
      if (one.kind === "task") {
        one.run().then(
          async (dispatch) => {
            if (!dispatch || this.lifeState === "ended") return;
            // A completion belongs to the session wherever it now runs: the owner applies it.
            const applied = this.lifeState === "moved" ? false : await this.background(dispatch);
            if (!applied) this.host.redeliver(this, dispatch);
          },
          (error: unknown) => log.error(`live.task failed: ${error instanceof Error ? error.message : String(error)}`),
        );
      } else if (one.kind === "rotate") this.host.rotate(this);
      else if (one.kind === "bind") this.host.bind(this, one.userId);
      else if (one.kind === "end") this.host.end(this);
    }
  }
}

const MOVED: EventOutcome = { kind: "moved" };
const ENDED: EventOutcome = { kind: "ended" };
/** A change kept, with its frame (none for a background change the render does not show). */
type Kept = { readonly frame: Frame | undefined };
