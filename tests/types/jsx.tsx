// Type tests for the JSX runtime, checked by `tsc --noEmit` (npm run typecheck); never executed.
// Each @ts-expect-error fails the type-check if the line under it ever compiles.
import type { UiElement } from "../../src/ui/node.ts";

declare const id: number;
declare const when: Date;

// Accepted: messages by name or with JSON arguments, a keydown filter, style props, keys, data-*
// and aria-* attributes, svc-key, fragments, components, void elements without children.
export const accepted: UiElement = (
  <main>
    <button onClick="Add">Add</button>
    <button onClick={["Remove", id]} class="small" disabled={id === 0}>✕</button>
    <button onClick={["Move", id, { by: -1, why: null }, [1, "a"]]}>↑</button>
    <input name="q" onInput="Search" onKeydown={{ key: "Enter", msg: ["Send", id] }} />
    <li key={id} hover={{ "background-color": "#eee" }} transition="opacity .2s" style={{ fontWeight: 600 }}>x</li>
    <div data-id={id} aria-label="label" svc-key="k" mq={{ "(max-width: 600px)": { display: "none" } }} />
    <>
      <span>a</span>
      {null}
      {false}
      {[1, "two", <b>3</b>]}
    </>
    <form method="post" action="/login" onSubmit="Save">
      <label for="e">Email</label>
    </form>
    <my-widget anything="goes" />
  </main>
);

function Item(props: { label: string; onPick: readonly [string, number] }) {
  return <li onClick={props.onPick}>{props.label}</li>;
}
export const component = <Item key={1} label="one" onPick={["Pick", 1]} />;

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
export const badProp = <Item label="one" onPick={["Pick", "1"]} />;
