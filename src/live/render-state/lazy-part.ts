/**
 * A `Ui.lazy` part of a session's page: it keeps its call, not what the call built
 * (docs/deployment.md#memory).
 *
 * Why: a session keeps its page between events, and a large page kept as elements holds several
 * times its HTML, an object and a list per element (bench/table.bench.ts, memory). A row written as
 * a `Ui.lazy` part is, between events, its function and arguments, because `fn` must depend on its
 * arguments alone (docs/live-apps.md): the call is a complete description of the row.
 *
 * What it is: within a session's render, `Ui.lazy` returns a part (src/ui/lazy.ts). A part is an
 * element like any other to the view, the id walk and the diff: it carries the tag, attributes,
 * handlers and key of the element `fn` built, and its children are that element's. When something
 * reads them while the part does not hold them (the diff of a part whose arguments changed, the
 * lookup of an id inside it, the markup of a resync), the part builds them again from its call.
 * What it built stays until the next render of any session starts (`releaseWarmParts`), or within
 * a session's event (`enterEvent`) until the next event starts, so one event builds a part's
 * subtree at most once (the row its handler check reads is the row its diff compares; released at
 * the start of the event's render, it was built a second time for the diff), and a page kept
 * between events holds each part's call only.
 *
 * A part whose subtree holds injected styles keeps its subtree: their CSS names whole ids, which
 * the id walk writes with the whole path (src/live/ids.ts).
 */
import { type ElementExtras, type Handlers, type UiElement, type UiNode } from "../../ui/types.ts";
import { KEYED_COPY, type KeyedCopy, withViewRender } from "../../ui/view-render.ts";

/** A function given to `Ui.lazy`. */
export type LazyFn = (...args: never[]) => UiElement;

/** The live children of a part's element placed under `seg` (src/live/ids.ts): given to the part by the id walk. */
export type PlaceKids = (view: UiElement, seg: string) => readonly UiNode[];

/**
 * How the id walk placed a part: whether its children hold injected styles, and how it places
 * them again (src/live/ids.ts).
 */
export type Placement = { readonly styled: boolean; readonly placeKids: PlaceKids };

/** The parts holding what they built, released together when the next render (or event) starts. */
let warm: Part[] = [];

/**
 * How the id walk places a part's children (src/live/ids.ts placeDetached): given by the first part
 * placed, rather than a field of each of the thousands of parts a session keeps
 * (docs/deployment.md#memory).
 */
let placementOf: PlaceKids | undefined;

/**
 * A part's element built again from its call (when something reads a part that released it), with
 * no session render under way, so that its calls are not taken for calls of a render under way. A
 * `Ui.each` row is built this way the first time too (each-rows.ts).
 */
export function rebuildPart(fn: LazyFn, args: readonly unknown[]): UiElement {
  return withViewRender(undefined, () => checkedPart((fn as (...args: readonly unknown[]) => unknown)(...args)));
}

/** What a lazy function returned, checked to be an element. */
export function checkedPart(result: unknown): UiElement {
  if (typeof result !== "object" || result === null || (result as UiElement).kind !== "el") {
    throw new TypeError("Ui.lazy: the function must return an element (Ui.h, Ui.keyed)");
  }
  return result as UiElement;
}

/**
 * A part: an element of a session's kept page that keeps less than its subtree between events and
 * builds it again when something reads it. A `Ui.lazy` or `Ui.each` part keeps its call (`LazyPart`
 * below); a fold keeps the tape of the calls that built it (src/live/render-state/fold/fold-part.ts). Its `kind`
 * ("el") and `call` (never set: a part is not a `Ui.h` call of the element log,
 * src/live/render-state/element-log.ts) are read from its prototype, not kept per part.
 */
export abstract class Part implements UiElement, KeyedCopy {
  declare readonly kind: "el";
  declare call: readonly unknown[] | undefined;
  readonly tag: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly handlers: Handlers | undefined;
  readonly key: string | undefined;
  seg: string | undefined = undefined;
  extras: ElementExtras | undefined;
  /** The element the part stands for, while the part holds it. */
  protected built: UiElement | undefined;
  /** Its live children under `seg`, while the part holds them. */
  private liveKids: readonly UiNode[] | undefined = undefined;
  /**
   * What child matching and the message check read of its subtree, noted when the part is placed,
   * so that neither builds it again (`Summary`).
   */
  private summary: Summary = NO_SUMMARY;

  constructor(root: UiElement, attrs: Readonly<Record<string, string>>, key: string | undefined) {
    this.tag = root.tag;
    this.attrs = attrs;
    this.handlers = root.handlers;
    this.key = key;
    // Written as src/ui/node.ts elementExtras writes extras (one shape): the root's style props
    // only, which the parent's id walk injects before the part; never a note of another render.
    const passes = root.extras?.passes;
    this.extras = passes === undefined ? undefined : { passes, pass: undefined, live: undefined };
    this.built = root;
    hold(this);
  }

  /**
   * The element the part stands for: held, or built again. Every way to hold something goes
   * through here first (the live children are placed from this element), so this is where a part
   * is listed for the next release.
   */
  view(): UiElement {
    let built = this.built;
    if (built === undefined) {
      built = this.built = this.rebuild();
      hold(this);
    }
    return built;
  }

  /** The element built again from what the part keeps. */
  protected abstract rebuild(): UiElement;

  /**
   * Whether `other` stands for the same subtree as far as what each keeps tells. Root attributes
   * and key are compared by `sameLazyCall`.
   */
  abstract sameContent(other: Part): boolean;

  /** The part with other root attributes and key, standing for the same subtree. */
  protected abstract copy(attrs: Readonly<Record<string, string>>, key: string | undefined): Part;

  /** From now on the part holds its subtree for good (a lazy part with injected styles inside, or at a page's root). */
  protected keepSubtree(): void {}

  /** The element it built, held for good: a part at a page's root stands for the page (src/live/ids.ts). */
  keptView(): UiElement {
    this.keepSubtree();
    return this.view();
  }

  /** The view children: those of the element the part stands for. */
  get children(): readonly UiNode[] {
    return this.view().children;
  }

  /** The live children under `seg`: held, or placed again from the element built again; undefined before the part is placed. */
  get kids(): readonly UiNode[] | undefined {
    let kids = this.liveKids;
    if (kids === undefined && this.seg !== undefined && placementOf !== undefined) {
      kids = this.liveKids = placementOf(this.view(), this.seg);
    }
    return kids;
  }

  /** The id walk places a part through `placedAt`; a live tree's kids are otherwise written only into view elements. */
  set kids(_kids: readonly UiNode[] | undefined) {
    throw new TypeError("a lazy part's children are placed by placedAt");
  }

  /**
   * The part placed under `seg` with these live children: this part the first time, else a part of
   * the same subtree (the page keeps the old one under its old seg until the diff is done).
   * `placement.styled`: the children hold injected styles, so the part keeps them.
   */
  placedAt(seg: string, kids: readonly UiNode[], placement: Placement): Part {
    const part = this.seg === undefined ? this : this.copy(this.attrs, this.key);
    part.seg = seg;
    part.liveKids = kids;
    placementOf ??= placement.placeKids;
    part.summary = summaryOf(kids);
    if (placement.styled) part.keepSubtree();
    return part;
  }

  /** The part with other root attributes and key (`Ui.keyed` of a part, src/ui/node.ts). */
  withRoot(attrs: Readonly<Record<string, string>>, key: string | undefined): Part {
    return this.copy(attrs, key);
  }

  /** `Ui.keyed` of the part (src/ui/node.ts keyedElement): the part with the key on its root, when `keyedAsPart`. */
  [KEYED_COPY](attrs: Readonly<Record<string, string>>, key: string | undefined): UiElement | undefined {
    return this.keyedAsPart ? this.withRoot(attrs, key) : undefined;
  }

  /**
   * Whether `Ui.keyed` of the part is the part with the key on its root (`withRoot`), rather than
   * a keyed element holding the part's children: a fold is not, as what it keeps is the call of its
   * root as it was, which the next render's same call gets back (src/live/render-state/fold/fold-part.ts).
   */
  get keyedAsPart(): boolean {
    return true;
  }

  /** Whether the part holds what it built now (until the next render, or for good when not `compact`). */
  get holding(): boolean {
    return this.built !== undefined || this.liveKids !== undefined;
  }

  /** Whether the part keeps only what it was made from between events (no injected styles inside). */
  get compact(): boolean {
    return true;
  }

  /** The tags of its element children, in order, each followed by "," (child matching's shape, src/live/diff/match.ts). */
  get childTags(): string {
    return this.summary.childTags;
  }

  /** The messages the handlers below its root send (the part's own are in `handlers`). */
  get messagesBelow(): readonly string[] {
    return this.summary.messages;
  }

  /** Drops what the part built (not for a part that keeps its subtree). */
  release(): void {
    if (!this.compact) return;
    this.built = undefined;
    this.liveKids = undefined;
  }
}

/** A part's root attributes and key. */
export type Rooted = { readonly attrs: Readonly<Record<string, string>>; readonly key: string | undefined };

/** A `Ui.lazy` or `Ui.each` part: it keeps its call, `fn` and its arguments. */
export class LazyPart extends Part {
  /** Whether the part holds its subtree for good: it holds injected styles, which name whole ids. */
  private keepsSubtree = false;

  /** `rooted`: the root's attributes and key, when not the root element's own (a keyed row). */
  constructor(readonly fn: LazyFn, readonly args: readonly unknown[], root: UiElement, rooted: Rooted = root) {
    super(root, rooted.attrs, rooted.key);
  }

  protected rebuild(): UiElement {
    return rebuildPart(this.fn, this.args);
  }

  /** The same function and arguments (`Object.is`, one by one). */
  sameContent(other: Part): boolean {
    if (!(other instanceof LazyPart) || this.fn !== other.fn) return false;
    const x = this.args, y = other.args;
    if (x === y) return true;
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!Object.is(x[i], y[i])) return false;
    return true;
  }

  protected override keepSubtree(): void {
    this.keepsSubtree = true;
  }

  override get compact(): boolean {
    return !this.keepsSubtree;
  }

  protected copy(attrs: Readonly<Record<string, string>>, key: string | undefined): LazyPart {
    return new LazyPart(this.fn, this.args, this.view(), { attrs, key });
  }
}

Object.defineProperties(Part.prototype, { kind: { value: "el" }, call: { value: undefined, writable: true } });

/** What a part notes of its subtree when placed. */
type Summary = { readonly childTags: string; readonly messages: readonly string[] };

const NO_SUMMARY: Summary = { childTags: "", messages: [] };

/**
 * Summaries met so far, by their text: a list's parts mostly note the same one, which they then
 * share. Bounded, as parts of any number of shapes may come and go.
 */
const SUMMARIES = new Map<string, Summary>();
const SUMMARIES_LIMIT = 4096;

function summaryOf(kids: readonly UiNode[]): Summary {
  let childTags = "";
  for (const kid of kids) if (kid.kind === "el") childTags += `${kid.tag},`;
  const found = new Set<string>();
  for (const kid of kids) if (kid.kind === "el") collectMessages(kid, found);
  const messages = [...found];
  const text = `${childTags}\u0000${messages.join("\u0000")}`;
  const known = SUMMARIES.get(text);
  if (known !== undefined) return known;
  const summary = { childTags, messages };
  if (SUMMARIES.size < SUMMARIES_LIMIT) SUMMARIES.set(text, summary);
  return summary;
}

/**
 * Adds the messages of a placed element's handlers and of those below it to `into`: a lazy part's
 * below its root from what it noted when placed, so that no part is built again for them. The
 * part's summary and a tree's message check (src/live/server/session/step.ts) both collect this way.
 */
export function collectMessages(el: UiElement, into: Set<string>): void {
  const handlers = el.handlers;
  if (handlers !== undefined) { for (const record of Object.values(handlers)) if (record) into.add(record.msg); }
  if (el instanceof Part) {
    for (const msg of el.messagesBelow) into.add(msg);
    return;
  }
  for (const kid of el.kids ?? el.children) if (kid.kind === "el") collectMessages(kid, into);
}

/** Notes a part that holds what it built, so that the next render releases it. */
function hold(part: Part): void {
  warm.push(part);
}

/** Whether a session's event is under way (`enterEvent`): its renders keep the parts it has read. */
let inEvent = false;

/**
 * A render starts: every part built or read since the last one drops what it built, unless the
 * render is an event's, whose parts were released when the event started (`enterEvent`).
 */
export function releaseBeforeRender(): void {
  if (!inEvent) releaseWarmParts();
}

/**
 * One event's work starts (its handler check, render and diff, src/live/server/session/session.ts):
 * parts built before it drop what they built, and what it builds stays until the next render or
 * event starts, so the row its handler check reads is the row its diff compares. Returns what
 * `leaveEvent` puts back when the work is done.
 */
export function enterEvent(): boolean {
  releaseWarmParts();
  const outer = inEvent;
  inEvent = true;
  return outer;
}

/** One event's work is done (`enterEvent`'s answer given back). */
export function leaveEvent(outer: boolean): void {
  inEvent = outer;
}

/**
 * Every part built or read since the last release drops what it built. One event's work reads a
 * part's subtree once; between events a page keeps its parts' calls.
 */
export function releaseWarmParts(): void {
  if (warm.length === 0) return;
  const parts = warm;
  warm = [];
  for (const part of parts) part.release();
}

/**
 * Whether two parts stand for the same content wherever they are placed: the same function and
 * arguments (`Object.is`, one by one), root attributes and key, and no injected styles inside
 * (whose CSS names whole ids). The diff and child matching then need not build either.
 */
export function sameLazyCall(a: object, b: object): boolean {
  if (!(a instanceof Part) || !(b instanceof Part)) return false;
  if (a.key !== b.key || !a.compact || !b.compact || !a.sameContent(b)) return false;
  return a.attrs === b.attrs || sameAttrs(a.attrs, b.attrs);
}

function sameAttrs(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  let count = 0;
  for (const name in a) {
    if (a[name] !== b[name]) return false;
    count++;
  }
  for (const _ in b) if (--count < 0) return false;
  return true;
}
