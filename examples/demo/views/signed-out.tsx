/** The signed-out page: log in, or create an account with a live password-strength label. */
import type { SignedOut } from "../model.ts";
import { ui } from "./messages.ts";

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

export function SignedOutPage({ model }: { model: SignedOut }) {
  const signup = model.form === "signup";
  return (
    <section class="card auth" id={signup ? "signup" : "login"}>
      <h2>{signup ? "Create an account" : "Sign in"}</h2>
      {model.error !== "" && <p class="error" id="auth-error">{MESSAGES[model.error] ?? "Something went wrong; try again."}</p>}
      {/* A plain form POST: the route sets the sliding cookie, which a live event reply cannot. */}
      <form method="post" action={signup ? "/register" : "/login"} id={signup ? "signup-form" : "login-form"}>
        <label for="email">Email</label>
        <input id="email" name="email" type="email" value={model.email} autocomplete="username" required />
        <label for="password">Password {signup && <StrengthLabel strength={model.strength} />}</label>
        {/* The label follows the typing; the password is checked on the server and never rendered. */}
        <input
          id="password"
          name="password"
          type="password"
          required
          autocomplete={signup ? "new-password" : "current-password"}
          onInput={signup ? ui.msg("Strength") : undefined}
        />
        <p>
          <button class="primary" type="submit" id="submit">{signup ? "Create account" : "Sign in"}</button>
        </p>
      </form>
      <p class="muted">
        {signup ? "Already have an account? " : "New here? "}
        <button type="button" class="small" id="switch" onClick={ui.msg("ShowForm", signup ? "login" : "signup")}>
          {signup ? "Sign in" : "Create an account"}
        </button>
      </p>
    </section>
  );
}

function StrengthLabel({ strength }: { strength: SignedOut["strength"] }) {
  return <output id="strength" class={strength === "" ? "strength" : `strength strength-${strength}`}>{strength}</output>;
}
