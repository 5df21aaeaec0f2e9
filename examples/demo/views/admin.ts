/** The admin page: every user, their role and access state, and the actions on them. */
import { Ui, type UiElement } from "../../../src/mod.ts";
import type { SignedIn } from "../model.ts";
import { ADMIN_ROLE } from "../store.ts";

const { h, keyed } = Ui;

export function adminView(model: SignedIn): UiElement {
  return h("section", { class: "card", id: "admin" },
    h("h2", {}, "Users"),
    model.notice === "" ? null : h("p", { class: "notice", id: "notice" }, model.notice),
    h("p", { class: "muted" }, "Revoke signs a user out everywhere (they can sign in again). Disable also blocks sign-in until enabled."),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, "Id"), h("th", {}, "Email"), h("th", {}, "Role"), h("th", {}, "State"), h("th", {}, "Last revoked"), h("th", {}, ""))),
      h("tbody", { id: "users" },
        model.users.map((user) => {
          const self = String(user.id) === model.userId;
          const makeRole = user.role === ADMIN_ROLE ? "user" : ADMIN_ROLE;
          return keyed(user.id, h("tr", { "data-email": user.email },
            h("td", {}, String(user.id)),
            h("td", {}, user.email, self ? " (you)" : ""),
            h("td", {}, h("span", { class: "tag role" }, user.role)),
            h("td", { class: "state" }, user.disabled ? "disabled" : "active"),
            h("td", { class: "revoked muted" }, user.revokedAt === null ? "never" : `${new Date(user.revokedAt).toISOString().slice(11, 19)} UTC`),
            h("td", { class: "row" },
              self ? null : h("button", { class: "small set-role", onClick: ["SetRole", user.id, makeRole] }, `Make ${makeRole}`),
              self ? null : h("button", { class: "small revoke", onClick: ["Revoke", user.id] }, "Revoke"),
              self ? null : user.disabled
                ? h("button", { class: "small enable", onClick: ["Enable", user.id] }, "Enable")
                : h("button", { class: "small disable", onClick: ["Disable", user.id] }, "Disable"),
            ),
          ));
        }),
      ),
    ),
  );
}
