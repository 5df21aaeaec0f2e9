/** The admin page: every user, their role and access state, and the actions on them. */
import type { SignedIn } from "../model.ts";
import { ADMIN_ROLE, type UserRow } from "../store.ts";
import { ui } from "./messages.ts";

export function AdminPage({ model }: { model: SignedIn }) {
  return (
    <section class="card" id="admin">
      <h2>Users</h2>
      {model.notice !== "" && <p class="notice" id="notice">{model.notice}</p>}
      <p class="muted">Revoke signs a user out everywhere (they can sign in again). Disable also blocks sign-in until enabled.</p>
      <table>
        <thead>
          <tr>
            <th>Id</th>
            <th>Email</th>
            <th>Role</th>
            <th>State</th>
            <th>Last revoked</th>
            <th></th>
          </tr>
        </thead>
        <tbody id="users">
          {model.users.map((user) => <UserRowView key={user.id} user={user} self={String(user.id) === model.userId} />)}
        </tbody>
      </table>
    </section>
  );
}

function UserRowView({ user, self }: { user: UserRow; self: boolean }) {
  const makeRole = user.role === ADMIN_ROLE ? "user" : ADMIN_ROLE;
  return (
    <tr data-email={user.email}>
      <td>{String(user.id)}</td>
      <td>{user.email}{self ? " (you)" : ""}</td>
      <td>
        <span class="tag role">{user.role}</span>
      </td>
      <td class="state">{user.disabled ? "disabled" : "active"}</td>
      <td class="revoked muted">{user.revokedAt === null ? "never" : `${new Date(user.revokedAt).toISOString().slice(11, 19)} UTC`}</td>
      <td class="row">
        {!self && (
          <>
            <button class="small set-role" onClick={ui.msg("SetRole", user.id, makeRole)}>Make {makeRole}</button>
            <button class="small revoke" onClick={ui.msg("Revoke", user.id)}>Revoke</button>
            {user.disabled
              ? <button class="small enable" onClick={ui.msg("Enable", user.id)}>Enable</button>
              : <button class="small disable" onClick={ui.msg("Disable", user.id)}>Disable</button>}
          </>
        )}
      </td>
    </tr>
  );
}
