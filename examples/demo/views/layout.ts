/** The page frame: header with the live clock, navigation and sign-out; then the current page. */
import { Ui, type UiElement } from "../../../src/mod.ts";
import type { Model } from "../model.ts";
import { ADMIN_ROLE } from "../store.ts";
import { adminView } from "./admin.ts";
import { homeView } from "./home.ts";
import { signedOutView } from "./signed-out.ts";

const { h } = Ui;

export function view(model: Model): UiElement {
  const session = model.session;
  return h("main", {},
    h("header", {},
      h("h1", {}, "svc demo"),
      h("span", { class: "clock", id: "clock" }, clock(model.now)),
      session.kind === "in"
        ? h("nav", {},
            h("span", { class: "muted", id: "who" }, session.email ?? "…"),
            h("button", { id: "nav-home", onClick: ["Go", "home"] }, "Home"),
            session.role === ADMIN_ROLE ? h("button", { id: "nav-admin", onClick: ["Go", "admin"] }, "Admin") : null,
            h("button", { id: "sign-out", onClick: "SignOut" }, "Sign out"),
          )
        : null,
    ),
    session.kind === "out" ? signedOutView(session) : session.page === "admin" ? adminView(session) : homeView(session),
  );
}

/** HH:MM:SS UTC. */
function clock(now: number): string {
  return `${new Date(now).toISOString().slice(11, 19)} UTC`;
}
