// A misspelt message in a keydown handler with a key filter: the error names the message and the
// forms the handler may take, and no internal type's name.
// expect: Type '"Claer"' is not assignable to type
// expect: Did you mean '"Clear"'?
import { Ui } from "svc-live";

type Messages = { Draft: [value: string]; Clear: [] };
const ui = Ui.typed<Messages>();

export const field = (draft: string) =>
  ui.h("input", { value: draft, onInput: "Draft", onKeydown: { key: "Escape", msg: "Claer" } }); // fails here
