/**
 * The props TSX accepts on each HTML element: typed attributes, the live handler props (a message,
 * never a function) and the style props. An identifier-like prop an element does not know (a
 * React-style `onClick={() => …}`, an inline `onclick`, a misspelt attribute) fails to compile;
 * hyphenated names (`data-*`, `aria-*`, `svc-key`) are always accepted, as TypeScript allows for
 * any JSX attribute that is not an identifier.
 */
import type { AttrValue, KeyHandler } from "../ui/attrs.ts";
import type { Child } from "../ui/node.ts";
import type { StyleProps } from "../ui/styles.ts";
import type { JsxHandlerProps } from "./register.ts";

/** A JSX key: becomes the element's `svc-key`, first in key priority (docs/protocol.md#keys). */
export type Key = string | number;

type Value = AttrValue;
type Flag = boolean | null | undefined;

/** Attributes every element accepts. */
export type GlobalAttributes = {
  /** The element's id, unique in the page (the renderer's own `svc-id` is another attribute). */
  readonly id?: Value;
  /** Space-separated class names. */
  readonly class?: Value;
  /** Advisory text, shown as a tooltip. */
  readonly title?: Value;
  /** The language of the element's text ("en", "fr-CA"). */
  readonly lang?: Value;
  /** The text direction. */
  readonly dir?: "ltr" | "rtl" | "auto" | null | undefined;
  /** Not rendered; "until-found" lets find-in-page reveal it. */
  readonly hidden?: Flag | "until-found";
  /** Its place in the tab order (0: in document order; -1: focusable only by script). */
  readonly tabindex?: number | string | null | undefined;
  /** The ARIA role. */
  readonly role?: Value;
  /** The slot of a shadow root it is assigned to. */
  readonly slot?: Value;
  /** Its part names, for `::part()` styling of a shadow tree. */
  readonly part?: Value;
  /** The customised built-in element it is. */
  readonly is?: Value;
  /** A content-security-policy nonce. */
  readonly nonce?: Value;
  /** A keyboard shortcut that focuses or activates it. */
  readonly accesskey?: Value;
  /** Focused when the page loads. */
  readonly autofocus?: Flag;
  /** How typed text is capitalised on virtual keyboards. */
  readonly autocapitalize?: Value;
  /** Whether the user may edit its content ("true", "false", "plaintext-only"). */
  readonly contenteditable?: Value;
  /** Whether it may be dragged. */
  readonly draggable?: "true" | "false" | boolean | null | undefined;
  /** The label of a virtual keyboard's enter key ("send", "search"). */
  readonly enterkeyhint?: Value;
  /** Neither focusable nor clickable, and hidden from assistive technology. */
  readonly inert?: Flag;
  /** The virtual keyboard to show ("numeric", "email"). */
  readonly inputmode?: Value;
  /** Makes it a popover ("auto", "manual"). */
  readonly popover?: Value;
  /** Whether its text is spell-checked. */
  readonly spellcheck?: "true" | "false" | boolean | null | undefined;
  /** Whether its text is translated by a page translator. */
  readonly translate?: "yes" | "no" | null | undefined;
  /** The element's key (its `svc-key`): keeps its identity among siblings that move. */
  readonly key?: Key | null | undefined;
};

/** What every element takes: global attributes, handlers, style props and children. */
export type ElementProps<Extra = object> = GlobalAttributes & JsxHandlerProps & StyleProps & Extra & {
  /** The element's children: nodes, text, numbers, and lists of them. */
  readonly children?: Child;
};
/** A void element (input, img, br…) takes no children. */
export type VoidElementProps<Extra = object> = GlobalAttributes & JsxHandlerProps & StyleProps & Extra & {
  /** None: a void element has no children. */
  readonly children?: never;
};

type FormControl = { readonly name?: Value; readonly form?: Value; readonly disabled?: Flag; readonly autocomplete?: Value };
type Sized = { readonly width?: Value; readonly height?: Value };
type Fetched = { readonly crossorigin?: "anonymous" | "use-credentials" | "" | null | undefined; readonly referrerpolicy?: Value };
/** A fetched resource's type, and the digest its bytes must match (Subresource Integrity). */
type Checked = { readonly type?: Value; readonly integrity?: Value };

type Anchor = Fetched & {
  readonly href?: Value;
  readonly target?: Value;
  readonly rel?: Value;
  readonly download?: Value | boolean;
  readonly hreflang?: Value;
  readonly type?: Value;
  readonly ping?: Value;
};
type Button = FormControl & {
  readonly type?: "button" | "submit" | "reset" | null | undefined;
  readonly value?: Value;
  readonly formaction?: Value;
  readonly formmethod?: Value;
  readonly formnovalidate?: Flag;
  readonly formtarget?: Value;
  readonly popovertarget?: Value;
  readonly popovertargetaction?: Value;
  readonly command?: Value;
  readonly commandfor?: Value;
};
type Form = {
  readonly action?: Value;
  readonly method?: "get" | "post" | "dialog" | "GET" | "POST" | null | undefined;
  readonly enctype?: Value;
  readonly novalidate?: Flag;
  readonly target?: Value;
  readonly autocomplete?: Value;
  readonly name?: Value;
  readonly rel?: Value;
};
type Input = FormControl & Sized & {
  readonly type?: Value;
  readonly value?: Value;
  readonly checked?: Flag;
  readonly placeholder?: Value;
  readonly required?: Flag;
  readonly readonly?: Flag;
  readonly min?: Value;
  readonly max?: Value;
  readonly step?: Value;
  readonly minlength?: Value;
  readonly maxlength?: Value;
  readonly pattern?: Value;
  readonly size?: Value;
  readonly multiple?: Flag;
  readonly accept?: Value;
  readonly list?: Value;
  readonly src?: Value;
  readonly alt?: Value;
  readonly capture?: Value;
  readonly dirname?: Value;
  readonly formaction?: Value;
  readonly formmethod?: Value;
  readonly formnovalidate?: Flag;
  readonly formtarget?: Value;
};
type TextArea = FormControl & {
  readonly value?: Value;
  readonly placeholder?: Value;
  readonly rows?: Value;
  readonly cols?: Value;
  readonly readonly?: Flag;
  readonly required?: Flag;
  readonly minlength?: Value;
  readonly maxlength?: Value;
  readonly wrap?: Value;
  readonly dirname?: Value;
};
type Select = FormControl & { readonly value?: Value; readonly multiple?: Flag; readonly required?: Flag; readonly size?: Value };
type Option = { readonly value?: Value; readonly selected?: Flag; readonly disabled?: Flag; readonly label?: Value };
type Img = Sized & Fetched & {
  readonly src?: Value;
  readonly alt?: Value;
  readonly srcset?: Value;
  readonly sizes?: Value;
  readonly loading?: "eager" | "lazy" | null | undefined;
  readonly decoding?: "sync" | "async" | "auto" | null | undefined;
  readonly fetchpriority?: "high" | "low" | "auto" | null | undefined;
  readonly usemap?: Value;
  readonly ismap?: Flag;
};
type Media = Fetched & {
  readonly src?: Value;
  readonly controls?: Flag;
  readonly autoplay?: Flag;
  readonly loop?: Flag;
  readonly muted?: Flag;
  readonly preload?: Value;
};
type Cell = { readonly colspan?: Value; readonly rowspan?: Value; readonly headers?: Value };

/** Elements with attributes of their own; the others take the global ones. */
type SpecificElements = {
  a: ElementProps<Anchor>;
  area: VoidElementProps<Anchor & { readonly alt?: Value; readonly coords?: Value; readonly shape?: Value }>;
  audio: ElementProps<Media>;
  base: VoidElementProps<{ readonly href?: Value; readonly target?: Value }>;
  blockquote: ElementProps<{ readonly cite?: Value }>;
  button: ElementProps<Button>;
  canvas: ElementProps<Sized>;
  col: VoidElementProps<{ readonly span?: Value }>;
  colgroup: ElementProps<{ readonly span?: Value }>;
  data: ElementProps<{ readonly value?: Value }>;
  del: ElementProps<{ readonly cite?: Value; readonly datetime?: Value }>;
  details: ElementProps<{ readonly open?: Flag; readonly name?: Value }>;
  dialog: ElementProps<{ readonly open?: Flag }>;
  embed: VoidElementProps<Sized & { readonly src?: Value; readonly type?: Value }>;
  fieldset: ElementProps<FormControl>;
  form: ElementProps<Form>;
  iframe: ElementProps<
    Sized & Fetched & {
      readonly src?: Value;
      readonly srcdoc?: Value;
      readonly name?: Value;
      readonly allow?: Value;
      readonly loading?: Value;
      readonly sandbox?: Value;
    }
  >;
  img: VoidElementProps<Img>;
  input: VoidElementProps<Input>;
  ins: ElementProps<{ readonly cite?: Value; readonly datetime?: Value }>;
  label: ElementProps<{ readonly for?: Value; readonly form?: Value }>;
  li: ElementProps<{ readonly value?: Value }>;
  link: VoidElementProps<
    Fetched & Checked & { readonly rel?: Value; readonly href?: Value; readonly as?: Value; readonly hreflang?: Value } & {
      readonly media?: Value;
      readonly sizes?: Value;
    }
  >;
  meta: VoidElementProps<{ readonly name?: Value; readonly content?: Value; readonly charset?: Value; readonly media?: Value }>;
  meter: ElementProps<
    {
      readonly value?: Value;
      readonly min?: Value;
      readonly max?: Value;
      readonly low?: Value;
      readonly high?: Value;
      readonly optimum?: Value;
    }
  >;
  object: ElementProps<Sized & { readonly data?: Value; readonly type?: Value; readonly name?: Value; readonly form?: Value }>;
  ol: ElementProps<{ readonly start?: Value; readonly reversed?: Flag; readonly type?: Value }>;
  optgroup: ElementProps<{ readonly label?: Value; readonly disabled?: Flag }>;
  option: ElementProps<Option>;
  output: ElementProps<{ readonly for?: Value; readonly form?: Value; readonly name?: Value }>;
  progress: ElementProps<{ readonly value?: Value; readonly max?: Value }>;
  q: ElementProps<{ readonly cite?: Value }>;
  script: ElementProps<
    Fetched & Checked & { readonly src?: Value; readonly async?: Flag; readonly defer?: Flag; readonly nomodule?: Flag }
  >;
  select: ElementProps<Select>;
  source: VoidElementProps<
    { readonly src?: Value; readonly type?: Value; readonly srcset?: Value; readonly sizes?: Value; readonly media?: Value }
  >;
  style: ElementProps<{ readonly media?: Value }>;
  td: ElementProps<Cell>;
  textarea: ElementProps<TextArea>;
  th: ElementProps<Cell & { readonly scope?: Value; readonly abbr?: Value }>;
  time: ElementProps<{ readonly datetime?: Value }>;
  track: VoidElementProps<
    { readonly src?: Value; readonly kind?: Value; readonly srclang?: Value; readonly label?: Value; readonly default?: Flag }
  >;
  video: ElementProps<Media & Sized & { readonly poster?: Value; readonly playsinline?: Flag }>;
};

/** Void elements without attributes of their own. */
type PlainVoidTag = "br" | "hr" | "wbr";

/** Elements that take only the global attributes. */
type PlainTag =
  | "abbr"
  | "address"
  | "article"
  | "aside"
  | "b"
  | "bdi"
  | "bdo"
  | "body"
  | "caption"
  | "cite"
  | "code"
  | "datalist"
  | "dd"
  | "dfn"
  | "div"
  | "dl"
  | "dt"
  | "em"
  | "figcaption"
  | "figure"
  | "footer"
  | "h1"
  | "h2"
  | "h3"
  | "h4"
  | "h5"
  | "h6"
  | "head"
  | "header"
  | "hgroup"
  | "html"
  | "i"
  | "kbd"
  | "legend"
  | "main"
  | "map"
  | "mark"
  | "menu"
  | "nav"
  | "noscript"
  | "p"
  | "picture"
  | "pre"
  | "rp"
  | "rt"
  | "ruby"
  | "s"
  | "samp"
  | "search"
  | "section"
  | "small"
  | "span"
  | "strong"
  | "sub"
  | "summary"
  | "sup"
  | "table"
  | "tbody"
  | "template"
  | "tfoot"
  | "thead"
  | "title"
  | "tr"
  | "u"
  | "ul"
  | "var";

/** SVG's own elements, whose attributes are many and camel-cased: any attribute, never a function. */
type SvgTag =
  | "svg"
  | "g"
  | "path"
  | "circle"
  | "ellipse"
  | "line"
  | "polyline"
  | "polygon"
  | "rect"
  | "text"
  | "tspan"
  | "use"
  | "defs"
  | "symbol"
  | "title";

type OpenAttributes = { readonly [attribute: string]: Value | KeyHandler | StyleProps[keyof StyleProps] | Child };

/** The intrinsic elements TSX knows: HTML's, and any custom element (a tag with a hyphen). */
export type IntrinsicElementProps = SpecificElements & { [T in PlainTag]: ElementProps } & { [T in PlainVoidTag]: VoidElementProps } & {
  [custom: `${string}-${string}`]: ElementProps<OpenAttributes>;
} & { [T in Exclude<SvgTag, PlainTag>]: ElementProps<OpenAttributes> };
