/**
 * A fold: a small subtree of a session's kept page (a row, a form field) kept as the tape of the
 * calls that built it (src/live/render-state/fold/tape-write.ts) rather than as elements (docs/deployment.md#memory).
 *
 * To the id walk, the diff and the lookups a fold is a part (src/live/render-state/lazy-part.ts): it carries its
 * root's tag, attributes, handlers and key, and builds its children again when something reads
 * them (a diff of a changed row, the lookup of a handler inside it, a resync's markup), by
 * replaying its tape; what it built is dropped when the next render starts. Two folds of one shape
 * and the same values stand for one subtree, so the diff compares those and builds neither.
 *
 * To the next render, a fold is the calls of the previous one (src/live/render-state/element-log.ts): each call of
 * the view is compared with the record the log expects next, and a call that matches gets a
 * stand-in (`TapeRef`) for the element its record built, without a build; the call of the fold's
 * root that matches gets the fold itself, so the parent's call, the id walk and the diff meet the
 * previous render's object and skip it. A stand-in that something reads (a call that did not
 * match, with stand-ins among its children) is the element replayed from the tape.
 */
import { Part, type Rooted } from "../lazy-part.ts";
import type { ElementExtras, Handlers, UiElement, UiElementFields, UiNode } from "../../../ui/types.ts";
import type { Shape } from "./shape.ts";
import { replayTape } from "./tape-read.ts";
import type { Tape } from "./tape-write.ts";

/**
 * The elements replayed from a fold's tape, while the fold holds what it built: beside the folds
 * rather than a field of each, as a session keeps thousands of folds and replays a handful per event.
 */
const replays = new Map<FoldPart, UiElement[]>();

export class FoldPart extends Part implements Tape {
  /**
   * The fold of a tape (its shape, shared, and its values), standing for `root` (the element its
   * last record built, or one equal to it); `attrs` and `key` as the part's root has them.
   */
  constructor(
    readonly shape: Shape,
    readonly values: readonly unknown[],
    root: UiElement,
    rooted: Rooted = root,
  ) {
    super(root, rooted.attrs, rooted.key);
  }

  /** The fold of a written tape standing for `root`. */
  static of(tape: Tape, root: UiElement): FoldPart {
    return new FoldPart(tape.shape, tape.values, root);
  }

  /** The number of calls (records) on its tape. */
  get calls(): number {
    return this.shape.records;
  }

  /** The element of record `index`, replayed from the tape (once while the part holds what it built). */
  recordElement(index: number): UiElement {
    this.view(); // lists the part for the next release
    return this.replayed()[index]!;
  }

  protected rebuild(): UiElement {
    const elements = this.replayed();
    return elements[elements.length - 1]!;
  }

  private replayed(): UiElement[] {
    let elements = replays.get(this);
    if (elements === undefined) replays.set(this, elements = replayTape(this));
    return elements;
  }

  /** The same shape and values (`Object.is`, one by one). */
  sameContent(other: Part): boolean {
    if (!(other instanceof FoldPart) || other.shape !== this.shape) return false;
    const a = this.values, b = other.values;
    if (a === b) return true;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
    return true;
  }

  override get keyedAsPart(): boolean {
    return false;
  }

  override release(): void {
    super.release();
    replays.delete(this);
  }

  protected copy(attrs: Readonly<Record<string, string>>, key: string | undefined): FoldPart {
    return new FoldPart(this.shape, this.values, this.view(), { attrs, key });
  }
}

/**
 * The stand-in for the element record `index` of `fold` built: what a call of the render under way
 * that matched the record gets. The parent call that matches its own record compares it by its
 * fold and index; anything that reads it as an element reads the element replayed from the tape.
 */
export class TapeRef implements UiElementFields {
  declare readonly kind: "el";
  private element: UiElement | undefined;

  constructor(readonly fold: FoldPart, readonly index: number) {}

  /** The element this stands in for, replayed from the fold's tape the first time it is read. */
  resolve(): UiElement {
    return (this.element ??= this.fold.recordElement(this.index));
  }

  get tag(): string {
    return this.resolve().tag;
  }
  get attrs(): Readonly<Record<string, string>> {
    return this.resolve().attrs;
  }
  get handlers(): Handlers | undefined {
    return this.resolve().handlers;
  }
  get children(): readonly UiNode[] {
    return this.resolve().children;
  }
  get key(): string | undefined {
    return this.resolve().key;
  }
  get call(): readonly unknown[] | undefined {
    return this.resolve().call;
  }
  set call(call: readonly unknown[] | undefined) {
    this.resolve().call = call;
  }
  get seg(): string | undefined {
    return this.resolve().seg;
  }
  set seg(seg: string | undefined) {
    this.resolve().seg = seg;
  }
  get kids(): readonly UiNode[] | undefined {
    return this.resolve().kids;
  }
  set kids(kids: readonly UiNode[] | undefined) {
    this.resolve().kids = kids;
  }
  get extras(): ElementExtras | undefined {
    return this.resolve().extras;
  }
  set extras(extras: ElementExtras | undefined) {
    this.resolve().extras = extras;
  }
}

Object.defineProperty(TapeRef.prototype, "kind", { value: "el" });

/** Whether `value` is the stand-in of record `index` of `fold`'s tape. */
export function isRecordRef(value: unknown, fold: object, index: number): boolean {
  return value instanceof TapeRef && value.fold === fold && value.index === index;
}

/** `node`, or the element it stands in for. */
export function resolved<T>(node: T): T {
  return node instanceof TapeRef ? (node.resolve() as T) : node;
}

/** Whose list of children a resolve writes into: the call's own (taken over by the build), or an app's (copied). */
type Whose = typeof OWN | typeof APPS;
const OWN = "the call's own";
const APPS = "an app's";

/**
 * `children` with every stand-in among them (nested lists too) replaced by its element, before a
 * build: the list itself when it holds none. A call's own list is written in place (the build takes
 * it over anyway); a nested list, which may be the app's, is copied.
 */
export function resolvedChildren<C>(children: C[], whose: Whose = OWN): C[] {
  let out = children;
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    let next: unknown = child;
    if (child instanceof TapeRef) next = child.resolve();
    else if (Array.isArray(child)) next = resolvedChildren(child, APPS);
    if (next !== child) {
      if (out === children && whose === APPS) out = children.slice();
      out[i] = next as C;
    }
  }
  return out;
}
