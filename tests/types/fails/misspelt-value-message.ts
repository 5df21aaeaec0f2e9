// A misspelt input message in view: the error lists the forms a value handler may take, and no
// internal type's name.
// expect: Type '"Drfat"' is not assignable to type
// expect: Did you mean '"Draft"'?
import { Live, Ui } from "svc-live";

type Model = { draft: string };
type Messages = { Draft: [value: string]; Clear: [] };

export const app = Live.app<Model, Messages>({
  init: () => ({ draft: "" }),
  update: (_model, msg, args) => (msg === "Draft" ? { draft: args[0] } : { draft: "" }),
  view: ({ draft }) => Ui.h("main", {}, Ui.h("input", { value: draft, onInput: "Drfat" })), // fails here
});
