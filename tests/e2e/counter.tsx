/** A counter written in TSX, which tests/e2e/hono-app.test.ts mounts with app.mount. */
import { Live, Ui } from "../../src/mod.ts";

const ui = Ui.typed<{ Inc: [] }>();

export function counterApp() {
  return Live.app<number, { Inc: [] }>(
    {
      init: () => 0,
      update: (n, msg) => (msg === "Inc" ? n + 1 : n),
      view: (n) => (
        <main>
          <output id="n">{n}</output>
          <button id="inc" onClick={ui.msg("Inc")}>+</button>
        </main>
      ),
    },
    { name: "counter" },
  );
}
