/**
 * Style props → CSS. Inline declarations go to the `style` attribute; what inline CSS cannot say
 * (breakpoints, pseudo-classes, transitions, animations) becomes one injected `<style>` per pass,
 * id `<owner>.~<pass>` (docs/protocol.md#node-ids), diffed and patched like any node.
 *
 * A pass's CSS is stored as a template at build time: `\0` stands for the owner's selector and
 * `\x01` for its keyframes name, both known only once ids are assigned (src/live/ids.ts).
 *
 * Values may carry user data, so they are escaped rather than refused: `{`, `}`, `;`, `<` and a
 * trailing backslash become CSS hex escapes, which keeps a value inside its declaration and keeps
 * `</style>` out of the element's raw text.
 */
import { ID_ATTR, type Pass } from "../protocol/mod.ts";
import type { PassTemplate } from "./types.ts";

/** CSS declarations, property to value. */
export type CssProps = Readonly<Record<string, string | number>>;

/** The pseudo-class props of the `pc` pass, in cascade order (visited before hover before active). */
export const PSEUDO_PROPS = {
  visited: "visited",
  hover: "hover",
  focusWithin: "focus-within",
  focus: "focus",
  focusVisible: "focus-visible",
  active: "active",
} as const;
/** A style prop for a pseudo-class (`hover`, `focus`, ...). */
export type PseudoProp = keyof typeof PSEUDO_PROPS;

/** The `animation` style prop: keyframes and how they run. */
export type Animation = {
  /** Keyframe selectors ("from", "50%", "to") to declarations. */
  readonly keyframes: Readonly<Record<string, CssProps>>;
  /** How long one run takes, as CSS writes it ("300ms", "2s"). */
  readonly duration: string;
  /** The timing function ("ease-out", "linear"); CSS's default "ease" when absent. */
  readonly timing?: string;
  /** How long before the first run starts ("100ms"). */
  readonly delay?: string;
  /** How many runs, or "infinite" (default 1). */
  readonly iterations?: number | "infinite";
  /** "normal", "reverse", "alternate" or "alternate-reverse". */
  readonly direction?: string;
  /** Whether the keyframes' styles hold before and after: "none", "forwards", "backwards", "both". */
  readonly fill?: string;
};

/** The style props an element accepts besides plain attributes. */
export type StyleProps =
  & {
    /** Inline declarations: a CSS string, or an object (`{ color: "teal", marginTop: 4 }`). */
    readonly style?: string | CssProps;
  }
  & {
    readonly [P in PseudoProp]?: CssProps;
  }
  & {
    /** Breakpoints: media query → declarations (pass `mq`). */
    readonly mq?: Readonly<Record<string, CssProps>>;
    /** Transitions: a CSS `transition` value, or property → timing (pass `tr`). */
    readonly transition?: string | Readonly<Record<string, string>>;
    /** One animation with its keyframes (pass `anim`). */
    readonly animation?: Animation;
  };

export const STYLE_PROP_NAMES: ReadonlySet<string> = new Set([
  "style",
  "mq",
  "transition",
  "animation",
  ...Object.keys(PSEUDO_PROPS),
]);

const PROP_NAME = /^-{0,2}[a-zA-Z][a-zA-Z0-9-]*$/;

/** Escapes a value or a media query so it stays inside its declaration or prelude. */
export function escapeCss(value: string): string {
  // deno-lint-ignore no-control-regex -- the point: NUL and \x01 are the markers a pass's CSS uses
  let out = value.replace(/[\0\x01]/g, "").replace(/[{};<]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `);
  if (/(^|[^\\])(\\\\)*\\$/.test(out)) out = `${out.slice(0, -1)}\\5c `;
  return out;
}

function propName(name: string): string {
  if (!PROP_NAME.test(name)) throw new TypeError(`Ui: bad CSS property ${JSON.stringify(name)}`);
  return name.startsWith("--") ? name : name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** Whether declarations carry `!important`. */
export type Priority = typeof NORMAL | typeof IMPORTANT;
const NORMAL = "normal";
const IMPORTANT = "important";

/** Declarations `a:b;c:d`, optionally `!important` so a pass beats the inline style attribute. */
export function declarations(props: CssProps, priority: Priority = NORMAL): string {
  let out = "";
  for (const name of Object.keys(props)) {
    const value = props[name];
    if (value === undefined || value === null || value === "") continue;
    out += `${propName(name)}:${escapeCss(String(value))}${priority === IMPORTANT ? " !important" : ""};`;
  }
  return out;
}

/** Builds the pass templates of one element, in the fixed order mq, pc, tr, anim. */
export function passTemplates(props: StyleProps): PassTemplate[] | undefined {
  const out: PassTemplate[] = [];
  // mq and pc declarations carry !important: an inline style always outranks a stylesheet rule.
  if (props.mq) {
    let css = "";
    for (const query of Object.keys(props.mq)) {
      const decls = declarations(props.mq[query] ?? {}, IMPORTANT);
      if (decls !== "") css += `@media ${escapeCss(query)}{\0{${decls}}}`;
    }
    if (css !== "") out.push({ pass: "mq", css });
  }
  let pc = "";
  for (const prop of Object.keys(PSEUDO_PROPS) as PseudoProp[]) {
    const decls = props[prop] ? declarations(props[prop], IMPORTANT) : "";
    if (decls !== "") pc += `\0:${PSEUDO_PROPS[prop]}{${decls}}`;
  }
  if (pc !== "") out.push({ pass: "pc", css: pc });
  if (props.transition !== undefined) {
    const t = props.transition;
    const value = typeof t === "string" ? escapeCss(t) : Object.keys(t).map((p) => `${propName(p)} ${escapeCss(t[p] ?? "")}`).join(",");
    if (value !== "") out.push({ pass: "tr", css: `\0{transition:${value};}` });
  }
  if (props.animation !== undefined) out.push({ pass: "anim", css: animationCss(props.animation) });
  return out.length > 0 ? out : undefined;
}

function animationCss(a: Animation): string {
  let frames = "";
  for (const at of Object.keys(a.keyframes)) frames += `${escapeCss(at)}{${declarations(a.keyframes[at] ?? {})}}`;
  const parts = [
    "\x01",
    escapeCss(a.duration),
    a.timing !== undefined ? escapeCss(a.timing) : "ease",
    a.delay !== undefined ? escapeCss(a.delay) : "0s",
    a.iterations !== undefined ? escapeCss(String(a.iterations)) : "1",
    a.direction !== undefined ? escapeCss(a.direction) : "normal",
    a.fill !== undefined ? escapeCss(a.fill) : "none",
  ];
  return `@keyframes \x01{${frames}}\0{animation:${parts.join(" ")};}`;
}

/** The selector of an element by id; ids hold no quote or backslash (src/live/ids.ts). */
export function selectorFor(id: string): string {
  return `[${ID_ATTR}="${id}"]`;
}

/**
 * A keyframes name for an owner id: an injective escape of the id into an identifier, so two
 * owners never share keyframes (`_` doubles; `.`, `#`, `:`, `~` become `_d`, `_h`, `_c`, `_t`).
 */
export function keyframesName(id: string): string {
  return `svc-${id.replace(/[_.#:~]/g, (c) => (c === "_" ? "__" : c === "." ? "_d" : c === "#" ? "_h" : c === ":" ? "_c" : "_t"))}`;
}

/** Fills a pass template for its owner. */
export function passCss(template: PassTemplate, ownerId: string): string {
  let css = template.css.replaceAll("\0", selectorFor(ownerId));
  if (template.pass === "anim") css = css.replaceAll("\x01", keyframesName(ownerId));
  return css;
}

export type { Pass };
