/** The signed-out page: log in, or create an account with a live password-strength label. */
import { Ui, type UiElement } from "../../../src/mod.ts";
import type { SignedOut } from "../model.ts";

const { h } = Ui;

const MESSAGES: Record<string, string> = {
  bad_credentials: "Wrong email or password.",
  user_disabled: "This account is disabled.",
  email_taken: "An account with this email already exists.",
  bad_email: "That does not look like an email address.",
  empty_password: "Enter a password.",
  weak_password: "Choose a stronger password (at least “fair”).",
  password_too_long: "That password is too long.",
  missing_fields: "Enter an email and a password.",
  rate_limited: "Too many attempts; wait a minute and try again.",
};

export function signedOutView(model: SignedOut): UiElement {
  const signup = model.form === "signup";
  return h("section", { class: "card auth", id: signup ? "signup" : "login" },
    h("h2", {}, signup ? "Create an account" : "Sign in"),
    model.error === "" ? null : h("p", { class: "error", id: "auth-error" }, MESSAGES[model.error] ?? "Something went wrong; try again."),
    // A plain form POST: the route sets the sliding cookie, which a live event reply cannot.
    h("form", { method: "post", action: signup ? "/register" : "/login", id: signup ? "signup-form" : "login-form" },
      h("label", { for: "email" }, "Email"),
      h("input", { id: "email", name: "email", type: "email", value: model.email, autocomplete: "username", required: true }),
      h("label", { for: "password" }, "Password ", signup ? strengthLabel(model.strength) : null),
      h("input", {
        id: "password", name: "password", type: "password", required: true,
        autocomplete: signup ? "new-password" : "current-password",
        // The label follows the typing; the password is checked on the server and never rendered.
        onInput: signup ? "Strength" : undefined,
      }),
      h("p", {}, h("button", { class: "primary", type: "submit", id: "submit" }, signup ? "Create account" : "Sign in")),
    ),
    h("p", { class: "muted" },
      signup ? "Already have an account? " : "New here? ",
      h("button", { type: "button", class: "small", id: "switch", onClick: ["ShowForm", signup ? "login" : "signup"] }, signup ? "Sign in" : "Create an account"),
    ),
  );
}

function strengthLabel(strength: SignedOut["strength"]): UiElement {
  return h("output", { id: "strength", class: strength === "" ? "strength" : `strength strength-${strength}` }, strength);
}
