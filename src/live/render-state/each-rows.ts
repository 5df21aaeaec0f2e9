/**
 * A `Ui.each` list within a session's render (src/ui/each.ts): each row is a part that keeps its
 * call, its row function and its item (lazy-part.ts), and a row whose item is the same value as in
 * the previous render's list is that render's part, neither built nor compared again.
 */
import { KEY_ATTR, sanitizeKey } from "../../protocol/mod.ts";
import { keyText, rowElement } from "../../ui/each.ts";
import { keyedRoot } from "../../ui/node.ts";
import type { UiElement } from "../../ui/types.ts";
import type { EachCall } from "../../ui/view-render.ts";
import { type LazyFn, LazyPart, rebuildPart, type Rooted } from "./lazy-part.ts";
import type { ListMemo, ListRows } from "./list-memo.ts";
import type { RenderProbe } from "../probe.ts";

const NO_ROWS: ListRows = { parts: [], items: [] };

/**
 * The parts of one list: the previous render's where an item is unchanged, new ones elsewhere.
 * `memo`: the session's lists; `probe`: the test hook that counts the rows built, if any.
 */
export function rowsOf(memo: ListMemo, call: EachCall, probe: RenderProbe | undefined): LazyPart[] {
  const { items, key } = call;
  const row = call.row as LazyFn;
  const previousList = memo.previous(row) ?? NO_ROWS;
  const previous = previousList.parts;
  // The previous items, compared with this render's one dense array against another: reading
  // each part's item would touch an object per row of the list (bench/table.bench.ts).
  const previousItems = previousList.items;
  const out = new Array<LazyPart>(items.length);
  // Which previous parts this list took: an item listed twice takes its part once.
  const taken = previous.length === 0 ? undefined : new Uint8Array(previous.length);
  let byKey: Map<string, number> | undefined;
  // Where the previous parts sit relative to the items, as the last look-up by key found.
  let shift = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    let at = i + shift;
    // The item at its expected place, as in a steady list: its key, a function of the item, is too.
    if (at < previous.length && taken![at] === 0 && Object.is(previousItems[at], item)) {
      taken![at] = 1;
      out[i] = previous[at]!;
      continue;
    }
    const k = keyText(key(item));
    if (taken !== undefined && (at >= previous.length || partKey(previous[at]!) !== k)) {
      byKey ??= indexByKey(previous);
      const found = byKey.get(k);
      if (found !== undefined) shift = found - i;
      at = found ?? -1;
    }
    const part = taken !== undefined && at >= 0 && at < previous.length ? previous[at]! : undefined;
    if (part !== undefined && taken![at] === 0 && Object.is(previousItems[at], item)) {
      taken![at] = 1;
      out[i] = part;
    } else {
      if (probe !== undefined) probe.built++;
      out[i] = newRow(row, item, k);
    }
  }
  memo.record(row, { parts: out, items: items.slice() });
  return out;
}

/** A new row: `row(item)` built outside the session's render, as a part of its call keyed by `k`. */
function newRow(row: LazyFn, item: unknown, k: string): LazyPart {
  const args = [item];
  const built = rowElement(rebuildPart(row, args));
  return new LazyPart(row, args, built, isEmpty(built.attrs) ? keyedBare(k) : keyedRoot(k, built));
}

function isEmpty(attrs: Readonly<Record<string, string>>): boolean {
  for (const _ in attrs) return false;
  return true;
}

/**
 * The root attributes and key of a row whose element has no attributes of its own (a `tr` of
 * cells, the usual row), keyed by `k`: one object per key, shared by the rows of that key in every
 * session, rather than one per row kept (docs/deployment.md#memory). Bounded: cleared when full.
 */
const BARE_KEYED = new Map<string, Rooted>();
const BARE_KEYED_LIMIT = 65_536;
const NO_KEY: Rooted = { attrs: Object.freeze({}), key: undefined };

function keyedBare(k: string): Rooted {
  if (k === "") return NO_KEY;
  let keyed = BARE_KEYED.get(k);
  if (keyed === undefined) {
    if (BARE_KEYED.size >= BARE_KEYED_LIMIT) BARE_KEYED.clear();
    keyed = { attrs: Object.freeze({ [KEY_ATTR]: k }), key: sanitizeKey(k) };
    BARE_KEYED.set(k, keyed);
  }
  return keyed;
}

/** The key a part of a list was made with ("" for none). */
function partKey(part: UiElement): string {
  return part.attrs[KEY_ATTR] ?? "";
}

/** The previous parts' places by key, the first of each. */
function indexByKey(previous: readonly LazyPart[]): Map<string, number> {
  const index = new Map<string, number>();
  for (let j = previous.length - 1; j >= 0; j--) index.set(partKey(previous[j]!), j);
  return index;
}
