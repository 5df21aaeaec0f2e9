/** The page frame: header with the live clock, navigation and sign-out; then the current page. */
import type { UiElement } from "../../../src/mod.ts";
import type { Model } from "../model.ts";
import { ADMIN_ROLE } from "../store.ts";
import { AdminPage } from "./admin.tsx";
import { HomePage } from "./home.tsx";
import { SignedOutPage } from "./signed-out.tsx";
import { ui } from "./messages.ts";

export function view(model: Model): UiElement {
  const session = model.session;
  return (
    <main>
      <header>
        <h1>svc demo</h1>
        <span class="clock" id="clock">{clock(model.now)}</span>
        {session.kind === "in" && (
          <nav>
            <span class="muted" id="who">{session.email ?? "…"}</span>
            <button id="nav-home" onClick={ui.msg("Go", "home")}>Home</button>
            {session.role === ADMIN_ROLE && <button id="nav-admin" onClick={ui.msg("Go", "admin")}>Admin</button>}
            <button id="sign-out" onClick={ui.msg("SignOut")}>Sign out</button>
          </nav>
        )}
      </header>
      {session.kind === "out"
        ? <SignedOutPage model={session} />
        : session.page === "admin"
        ? <AdminPage model={session} />
        : <HomePage model={session} />}
    </main>
  );
}

/** HH:MM:SS UTC. */
function clock(now: number): string {
  return `${new Date(now).toISOString().slice(11, 19)} UTC`;
}
