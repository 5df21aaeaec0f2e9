/** A counter written in TSX, which tests/e2e/hono-app.test.ts mounts with app.mount. */
import { Live } from "../../src/mod.ts";

export function counterApp() {
  return Live.app<number>(
    {
      init: () => 0,
      update: (n, msg) => (msg === "Inc" ? n + 1 : n),
      view: (n) => (
        <main>
          <output id="n">{n}</output>
          <button id="inc" onClick="Inc">+</button>
        </main>
      ),
    },
    { name: "counter" },
  );
}
