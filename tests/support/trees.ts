/**
 * Random view trees for the property tests: a tree spec (plain data, so fast-check can print and
 * shrink it), a mutator that derives a second tree from it (reorders, inserts, removals, tag
 * changes, key changes, attribute and text changes, form handler changes, style props), and a
 * builder to Ui elements.
 *
 * Trees keep to markup the HTML parser reproduces as written (no block inside <p>, no nested
 * forms), since the property compares the DOM of render(new) with the patched DOM of render(old).
 */
import fc from "fast-check";
import { type Child, h, keyed, raw, type UiElement } from "../../src/ui/node.ts";

export type Ctx = "flow" | "formflow" | "phrasing" | "ul" | "select";
export type Spec = { tag: string; ctx: Ctx; attrs: Record<string, unknown>; key?: string; kids: Kid[] };
export type Kid = Spec | { text: string } | { raw: string };

const hostile = fc.constantFrom("a", "b", "x y", "<", "&amp;", "\"'", "</script>", "\u2028", "\r\n", "é€😀", "&");
const textArb = fc.oneof({ weight: 4, arbitrary: hostile }, { weight: 1, arbitrary: fc.string({ maxLength: 6, unit: "grapheme" }) })
  .filter((s) => s !== "");
const keyArb = fc.constantFrom("a", "b", "c", "k 1", "k_1");
const rawArb = fc.constantFrom("<b>bold</b>", "a &amp; b", "<i>it</i>tail", "<em>x</em>");

const FLOW = ["div", "section", "my-widget"];
const PHRASING = ["span", "b"];

function kidsFor(ctx: Ctx, depth: number): fc.Arbitrary<Kid[]> {
  if (depth < 0) return fc.constant([]);
  const max = depth === 0 ? 2 : 4;
  if (ctx === "ul") return fc.array(elementFor("li", "flow", depth - 1), { maxLength: max });
  if (ctx === "select") {
    return fc.array(
      fc.record({
        tag: fc.constant("option"),
        ctx: fc.constant<Ctx>("select"),
        attrs: fc.record({ value: fc.constantFrom("1", "2", "3") }, { requiredKeys: [] }),
        kids: fc.array(textArb.map((t) => ({ text: t })), { minLength: 1, maxLength: 1 }),
      }),
      { maxLength: 3 },
    );
  }
  if (depth === 0) return fc.array(textArb.map((text): Kid => ({ text })), { maxLength: 1 });
  const options: fc.Arbitrary<Kid>[] = [
    textArb.map((text) => ({ text })),
    elementFor(fc.constantFrom(...PHRASING), "phrasing", depth - 1),
    input(),
  ];
  if (ctx !== "phrasing") {
    options.push(
      elementFor(fc.constantFrom(...FLOW), ctx, depth - 1),
      elementFor("p", "phrasing", depth - 1),
      elementFor("h1", "phrasing", depth - 1),
      elementFor("ul", "ul", depth - 1),
      elementFor("select", "select", depth - 1, true),
      textarea(),
      rawArb.map((r) => ({ raw: r })),
    );
    if (ctx === "flow") options.push(form(depth - 1));
  }
  return fc.array(fc.oneof(...options), { maxLength: max });
}

function elementFor(tag: string | fc.Arbitrary<string>, ctx: Ctx, depth: number, named = false): fc.Arbitrary<Spec> {
  return fc.record({
    tag: typeof tag === "string" ? fc.constant(tag) : tag,
    ctx: fc.constant(ctx),
    attrs: fc.record(
      {
        class: fc.constantFrom("a", "b"),
        title: textArb,
        ...(named ? { name: fc.constantFrom("s", "t") } : {}),
        onClick: fc.constantFrom("Go", "Stop"),
        hover: fc.constant({ color: "red" }),
        mq: fc.constant({ "(max-width: 600px)": { padding: "1px" } }),
      },
      { requiredKeys: [] },
    ),
    key: fc.option(keyArb, { nil: undefined, freq: 3 }),
    kids: kidsFor(ctx, depth),
  }).map((s) => (s.key === undefined ? (({ key: _k, ...rest }) => rest)(s) : s));
}

function input(): fc.Arbitrary<Spec> {
  return fc.record({
    tag: fc.constant("input"),
    ctx: fc.constant<Ctx>("phrasing"),
    attrs: fc.record(
      {
        name: fc.constantFrom("title", "qty", "pick"),
        type: fc.constantFrom("text", "checkbox", "radio"),
        value: textArb,
        checked: fc.boolean(),
        disabled: fc.boolean(),
        onInput: fc.constant("Set"),
        focus: fc.constant({ outline: "1px solid blue" }),
      },
      { requiredKeys: [] },
    ),
    kids: fc.constant([]),
  });
}

function textarea(): fc.Arbitrary<Spec> {
  return fc.record({
    tag: fc.constant("textarea"),
    ctx: fc.constant<Ctx>("phrasing"),
    attrs: fc.record({ name: fc.constantFrom("body", "note") }, { requiredKeys: [] }),
    kids: fc.array(textArb.filter((t) => !t.startsWith("\n") && !t.startsWith("\r")).map((text) => ({ text })), { maxLength: 1 }),
  });
}

function form(depth: number): fc.Arbitrary<Spec> {
  return fc.record({
    tag: fc.constant("form"),
    ctx: fc.constant<Ctx>("formflow"),
    attrs: fc.record({ onSubmit: fc.constantFrom("Save", "Send"), action: fc.constantFrom("/a", "/b"), name: fc.constantFrom("f", "g") }, {
      requiredKeys: [],
    }),
    kids: kidsFor("formflow", depth),
  });
}

/** A root spec: a div holding flow content. */
export const specArb: fc.Arbitrary<Spec> = elementFor("div", "flow", 3);

export function build(spec: Spec): UiElement {
  const kids: Child[] = spec.kids.map((k) => ("text" in k ? k.text : "raw" in k ? raw(k.raw) : build(k)));
  const el = h(spec.tag, spec.attrs as never, ...kids);
  return spec.key === undefined ? el : keyed(spec.key, el);
}

/** Derives a second tree: each number picks an element (mod count) and an edit (mod edits). */
export function mutate(spec: Spec, picks: readonly number[]): Spec {
  const copy = structuredClone(spec);
  for (const pick of picks) {
    const all: Spec[] = [];
    const walk = (s: Spec) => {
      all.push(s);
      for (const k of s.kids) if ("tag" in k) walk(k);
    };
    walk(copy);
    const target = all[pick % all.length]!;
    edit(target, Math.floor(pick / all.length), pick === 0 ? 0 : pick);
  }
  return copy;
}

function edit(s: Spec, op: number, salt: number): void {
  const kids = s.kids;
  const at = kids.length === 0 ? 0 : salt % kids.length;
  const textOk = s.ctx !== "ul" && s.ctx !== "select" && s.tag !== "input";
  if (s.tag === "option") {
    if (op % 2 === 0) s.attrs["selected"] = !s.attrs["selected"];
    else s.kids = [{ text: `opt${salt % 3}` }];
    return;
  }
  switch (op % 11) {
    case 0:
      kids.splice(at, 1);
      break;
    case 1: { // duplicate a child (shared keys, same shapes)
      const k = kids[at];
      if (k) kids.splice(at, 0, structuredClone(k));
      break;
    }
    case 2:
      kids.reverse();
      break;
    case 3:
      if (kids.length > 1) kids.push(kids.shift()!);
      break;
    case 4: { // a tag change within the same content model
      if (FLOW.includes(s.tag)) s.tag = FLOW[(FLOW.indexOf(s.tag) + 1) % FLOW.length]!;
      else if (PHRASING.includes(s.tag)) s.tag = PHRASING[(PHRASING.indexOf(s.tag) + 1) % PHRASING.length]!;
      break;
    }
    case 5:
      if (s.tag !== "input" && s.tag !== "textarea" && s.tag !== "select") {
        s.key = s.key === undefined ? "a" : s.key === "a" ? "b" : undefined;
      }
      break;
    case 6: { // attributes
      const a = s.attrs;
      if (s.tag === "input") {
        if (salt % 3 === 0) a["value"] = a["value"] === "x" ? "" : "x";
        else if (salt % 3 === 1) a["checked"] = !a["checked"];
        else a["disabled"] = !a["disabled"];
      } else if (s.tag === "option") a["selected"] = !a["selected"];
      else a["class"] = a["class"] === "a" ? undefined : "a";
      break;
    }
    case 7: { // text
      if (!textOk) break;
      if (s.tag === "textarea") s.kids = kids.length ? [] : [{ text: "typed" }];
      else if (kids[at] && "text" in kids[at]!) (kids[at] as { text: string }).text += "!";
      else kids.splice(at, 0, { text: "new <text>" });
      break;
    }
    case 8: { // a form's submit handler or action, or a handler elsewhere
      if (s.tag === "form") s.attrs["onSubmit"] = s.attrs["onSubmit"] === "Save" ? "Send" : "Save";
      else s.attrs["onClick"] = s.attrs["onClick"] === undefined ? "Go" : undefined;
      break;
    }
    case 9: { // style props
      if (s.tag === "input") s.attrs["focus"] = s.attrs["focus"] ? undefined : { outline: "2px solid red" };
      else s.attrs["hover"] = s.attrs["hover"] ? undefined : { color: "blue" };
      break;
    }
    default: { // insert a fresh element for the context
      if (s.ctx === "ul") kids.splice(at, 0, { tag: "li", ctx: "flow", attrs: {}, kids: [{ text: "new" }] });
      else if (s.ctx === "select") kids.splice(at, 0, { tag: "option", ctx: "select", attrs: { value: "9" }, kids: [{ text: "nine" }] });
      else if (s.tag === "input" || s.tag === "textarea") break;
      else if (s.ctx === "phrasing" || s.tag === "p" || s.tag === "h1") {
        kids.splice(at, 0, { tag: "span", ctx: "phrasing", attrs: {}, kids: [{ text: "line" }] });
      } else kids.splice(at, 0, { tag: "div", ctx: s.ctx, attrs: {}, kids: [{ text: "line" }] });
    }
  }
}
