/**
 * A reference patch applier (docs/protocol.md#patches), the yardstick of the diff tests.
 * It follows the wire contract literally and checks it strictly: a patch or keep addressing an id
 * that is not there throws (a desync the real client would resync on).
 */
import { ID_ATTR, type Patch, PROPERTY_ATTRS } from "../../src/protocol/mod.ts";
import { parseIn } from "./dom.ts";

export function applyPatches(container: Element, patches: readonly Patch[]): void {
  for (const patch of patches) applyPatch(container, patch);
}

/** All elements under and including `root`, by a plain walk (happy-dom's selector cache grows without bound). */
function elements(root: Element, out: Element[] = []): Element[] {
  out.push(root);
  for (const child of Array.from(root.children)) elements(child, out);
  return out;
}

function find(container: Element, id: string): Element {
  for (const el of elements(container)) if (el.getAttribute(ID_ATTR) === id) return el;
  throw new Error(`desync: no element ${id}`);
}

function applyPatch(container: Element, patch: Patch): void {
  let el = find(container, patch.id);
  if (patch.replace !== undefined) {
    const nodes = parseIn(el.parentElement?.tagName.toLowerCase() ?? "div", patch.replace);
    el.replaceWith(...nodes);
    const fresh = nodes[0];
    if (!(fresh && fresh.nodeType === 1)) throw new Error("replace markup is not an element");
    el = fresh as Element;
  }
  if (patch.text !== undefined) el.textContent = patch.text;
  if (patch.html !== undefined) el.replaceChildren(...parseIn(el.tagName.toLowerCase(), patch.html, patch.id));
  if (patch.kids !== undefined) {
    const tag = el.tagName.toLowerCase();
    const children = Array.from(el.children);
    const kept = patch.kids.map((entry) => {
      if ("html" in entry) return parseIn(tag, entry.html);
      const node = children.find((c) => c.getAttribute(ID_ATTR) === entry.keep);
      if (!node) throw new Error(`desync: keep ${entry.keep} is not a child of ${patch.id}`);
      return [node];
    });
    patch.kids.forEach((entry, i) => {
      if ("keep" in entry && "id" in entry) rename(kept[i]![0] as Element, entry.keep, entry.id);
    });
    while (el.firstChild) el.removeChild(el.firstChild);
    for (const nodes of kept) for (const node of nodes) el.appendChild(node);
  }
  if (patch.attrs !== undefined) {
    for (const [name, value] of Object.entries(patch.attrs)) {
      if (value === "") {
        el.removeAttribute(name);
        // docs/protocol.md#client-rules 5: removing these resets the DOM property as well.
        if ((PROPERTY_ATTRS as readonly string[]).includes(name)) resetProperty(el, name);
      } else el.setAttribute(name, value);
    }
  }
  if (patch.remove) el.remove();
}

function rename(root: Element, from: string, to: string): void {
  for (const el of elements(root)) {
    const id = el.getAttribute(ID_ATTR);
    if (id !== null && (id === from || id.startsWith(`${from}.`))) el.setAttribute(ID_ATTR, to + id.slice(from.length));
  }
}

/**
 * The property behind a removed attribute. Only where the property is live state apart from the
 * attribute: an option's `.value` setter would write the attribute back, so it is left alone.
 */
const DEFAULT_MODE_TYPES = ["checkbox", "radio", "hidden", "submit", "reset", "button", "image"];

function resetProperty(el: Element, name: string): void {
  const tag = el.tagName.toLowerCase();
  const target = el as unknown as Record<string, unknown>;
  const type = el.getAttribute("type") ?? "text";
  // Only where `.value` is live state ("value mode"); on a checkbox the setter writes the attribute.
  const valueMode = tag === "textarea" || (tag === "input" && !DEFAULT_MODE_TYPES.includes(type));
  if (name === "value" && valueMode) target["value"] = "";
  else if (name === "checked" && tag === "input") target["checked"] = false;
  else if (name === "selected" && tag === "option") target["selected"] = false;
  else if (name === "disabled") target["disabled"] = false;
}
