/**
 * Attribute diffing under the authority map (docs/protocol.md#input-state, #client-rules).
 *
 * Plain diffing first decides what changed between the previous and the new render: an unchanged
 * render never writes the DOM, so a refused or normalised edit leaves what the user typed. The
 * client-reported values then only suppress: on an input, textarea or select (and the options of
 * a reported select), a changed `value`, `checked` or `selected` whose new rendered value equals
 * what the client reported is not sent, since the DOM already shows it. Non-input tags ignore the
 * map.
 */
import { CHECKED_ON, REMOVED } from "../../protocol/mod.ts";
import type { LiveElement } from "../tree.ts";

/** Node id → the value the client reported in `inputState` (step 3). */
export type ClientValues = ReadonlyMap<string, string> | Readonly<Record<string, string>>;
export type Reported = (id: string) => string | undefined;

/**
 * The ids of the pair being diffed, by depth on the diff's path: the old id (what the client
 * posted, the authority map's key) and the new one, joined only when used; and the client's
 * reported values, looked up by old id.
 */
export interface IdPaths {
  readonly reported: Reported | undefined;
  oldId(depth: number): string;
  newId(depth: number): string;
  /** The old id of the select the element at `depth` is in, if any (its options show the select's reported value). */
  selectIdOf(depth: number): string | undefined;
}

/** The pair whose attributes are compared: the old and the new element, where they are on the path. */
export type AttrsPair = {
  readonly before: LiveElement;
  readonly after: LiveElement;
  readonly depth: number;
};

export function reporter(values: ClientValues | undefined): Reported | undefined {
  if (values === undefined) return undefined;
  if (values instanceof Map) return (id) => values.get(id);
  const record = values as Readonly<Record<string, string>>;
  return (id) => (Object.hasOwn(record, id) ? record[id] : undefined);
}

/**
 * What `diffAttrs` answers when attributes changed but the client already shows every change: no
 * patch, yet the two elements differ (the diff must not swap the new element for the old one).
 */
export const CHANGE_SHOWN: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The attrs of a patch for the pair, undefined when none changed, or CHANGE_SHOWN when the client
 * shows every change already. Reported values are looked up with old ids, the ids the client posted.
 */
export function diffAttrs(pair: AttrsPair, ids: IdPaths): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  let shown = false;
  const p = pair.before, n = pair.after;
  const pa = p.attrs, na = n.attrs;
  if (pa !== na) {
    const reported = ids.reported;
    for (const name in na) {
      const value = na[name] as string;
      if (pa[name] === value) continue;
      if (reported && clientShows(pair, ids, name, value)) shown = true;
      else (out ??= {})[name] = value;
    }
    for (const name in pa) {
      if (na[name] !== undefined) continue;
      if (reported && clientShows(pair, ids, name, REMOVED)) shown = true;
      else (out ??= {})[name] = REMOVED;
    }
  }
  return out ?? (shown ? CHANGE_SHOWN : undefined);
}

/** Whether the client already shows the new element's rendered `value` of attribute `name`. */
function clientShows({ after: n, depth }: AttrsPair, ids: IdPaths, name: string, value: string): boolean {
  const reported = ids.reported as Reported;
  if (n.tag === "input") {
    const type = n.attrs["type"];
    const toggle = type === "checkbox" || type === "radio";
    if (toggle ? name !== "checked" : name !== "value") return false;
    const shown = reported(ids.oldId(depth));
    if (shown === undefined) return false;
    return toggle ? (value === REMOVED ? "" : CHECKED_ON) === shown : value === shown;
  }
  const selectId = n.tag === "option" && name === "selected" ? ids.selectIdOf(depth) : undefined;
  if (selectId !== undefined) {
    const shown = reported(selectId);
    if (shown === undefined) return false;
    return (value !== REMOVED) === (optionValue(n) === shown);
  }
  return false;
}

/** An option's value: its `value` attribute, else its text (as the DOM defines it). */
function optionValue(option: LiveElement): string {
  const v = option.attrs["value"];
  if (v !== undefined) return v;
  let text = "";
  for (const kid of option.kids) if (kid.kind === "text") text += kid.text;
  return text;
}

/** A textarea (at `depth` on the path of `ids`) whose new text is what the client reported needs no html patch. */
export function clientShowsText(ids: IdPaths, depth: number, text: string): boolean {
  return ids.reported !== undefined && ids.reported(ids.oldId(depth)) === text;
}
