// Type tests for the JSX runtime, checked by `tsc --noEmit` (npm run typecheck); never executed.
// Each @ts-expect-error fails the type-check if the line under it ever compiles. This program
// declares no Register, so its TSX handlers take messages `ui.msg` wrote (the declared case is
// tests/types/registered/).
import type { UiElement } from "../../src/ui/node.ts";
import type { CheckedMessage } from "../../src/ui/messages.ts";
import { typed } from "../../src/ui/typed.ts";
import type { JsonValue } from "../../src/json.ts";

declare const id: number;
declare const when: Date;

type Messages = {
  Add: [];
  Remove: [id: number];
  Move: [id: number, how: { by: number; why: null }, path: JsonValue[]];
  Search: [query: string];
  Send: [id: number];
  Save: [fields: { readonly [name: string]: string }];
  Pick: [id: number];
};
const ui = typed<Messages>();

// Accepted: messages by name or with JSON arguments, a keydown filter, style props, keys, data-*
// and aria-* attributes, svc-key, fragments, components, void elements without children.
export const accepted: UiElement = (
  <main>
    <button onClick={ui.msg("Add")}>Add</button>
    <button onClick={ui.msg("Remove", id)} class="small" disabled={id === 0}>✕</button>
    <button onClick={ui.msg("Move", id, { by: -1, why: null }, [1, "a"])}>↑</button>
    <input name="q" onInput={ui.msg("Search")} onKeydown={{ key: "Enter", msg: ui.msg("Send", id) }} />
    <li key={id} hover={{ "background-color": "#eee" }} transition="opacity .2s" style={{ fontWeight: 600 }}>x</li>
    <div data-id={id} aria-label="label" svc-key="k" mq={{ "(max-width: 600px)": { display: "none" } }} />
    <>
      <span>a</span>
      {null}
      {false}
      {[1, "two", <b>3</b>]}
    </>
    <form method="post" action="/login" onSubmit={ui.msg("Save")}>
      <label for="e">Email</label>
    </form>
    <my-widget anything="goes" />
  </main>
);

function Item(props: { label: string; onPick: CheckedMessage }) {
  return <li onClick={props.onPick}>{props.label}</li>;
}
export const component = <Item key={1} label="one" onPick={ui.msg("Pick", 1)} />;

// Refused without a declared Register: a raw name or tuple, which nothing could check against
// the app's messages (the error tells to write ui.msg), and a misspelt or mistyped ui.msg.
// @ts-expect-error a raw name: write ui.msg("Add")
export const rawName = <button onClick="Add">x</button>;
// @ts-expect-error a raw tuple: write ui.msg("Remove", id)
export const rawTuple = <button onClick={["Remove", id]}>x</button>;
// @ts-expect-error a raw message in a key filter
export const rawFilter = <input onKeydown={{ key: "Enter", msg: "Send" }} />;
// @ts-expect-error ui.msg checks the name
export const misspelt = <button onClick={ui.msg("Remvoe", id)}>x</button>;
// @ts-expect-error ui.msg checks the arguments
export const stringId = <button onClick={ui.msg("Remove", String(id))}>x</button>;

// Refused: a function handler (React style), a message that is not a name or a tuple, non-JSON
// arguments, lowercase inline handlers, handlers the protocol does not have, a bad key filter.
// @ts-expect-error handlers name messages, never functions
export const fn = <button onClick={() => 1}>x</button>;
// @ts-expect-error a message is a name or [name, ...json]
export const num = <button onClick={42}>x</button>;
// @ts-expect-error the first element of a message is its name
export const noName = <button onClick={[1, 2]}>x</button>;
// @ts-expect-error a Date is not JSON
export const date = <button onClick={["At", when]}>x</button>;
// @ts-expect-error inline script handlers are not attributes
export const inline = <button onclick="alert(1)">x</button>;
// @ts-expect-error the protocol has no hover event; the hover style prop is an object
export const hover = <button onMouseover="Hover">x</button>;
// @ts-expect-error a key filter names the key as a string
export const filter = <input onKeydown={{ key: 13, msg: "Send" }} />;
// @ts-expect-error style props take CSS declarations, not numbers
export const style = <p hover={1}>x</p>;
// @ts-expect-error void elements take no children
export const voidKids = <input>text</input>;
// @ts-expect-error an unknown attribute on an element (React's className)
export const className = <div className="x" />;
// @ts-expect-error a key is a string or a number
export const badKey = <li key={{ id }}>x</li>;
// @ts-expect-error a component's props are checked too
export const badProp = <Item label="one" onPick={["Pick", 1]} />;
