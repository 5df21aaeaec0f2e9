/**
 * The demo's own queries: profiles (a small table of its own) and the admin's view of the
 * built-in users table and the shared revocation table (std-auth.md §Built-in users table).
 * Every statement is parameterised; `?` placeholders become `$n` on Postgres.
 */
import { ACCESS_TABLE, type Db, type DbStatement, type SqlValue, USERS_TABLE } from "../../src/mod.ts";

export type Profile = { readonly name: string; readonly handle: string };
export type Account = { readonly email: string; readonly role: string; readonly profile: Profile };
export type UserRow = { readonly id: number; readonly email: string; readonly role: string; readonly disabled: boolean; readonly revokedAt: number | null };

export const ADMIN_ROLE = "admin";

export class DemoStore {
  #ready: Promise<void> | undefined;
  #writes: Promise<unknown> = Promise.resolve();

  constructor(readonly db: Db) {}

  #stmt(sql: string, ...args: SqlValue[]): DbStatement {
    let n = 0;
    return { sql: this.db.dialect === "postgres" ? sql.replace(/\?/g, () => `$${++n}`) : sql, args };
  }

  async #rows(sql: string, ...args: SqlValue[]): Promise<Record<string, unknown>[]> {
    const result = await this.db.query(this.#stmt(sql, ...args));
    if (!result.ok) throw result.error;
    return result.value as Record<string, unknown>[];
  }

  /** Creates the profiles table once per process. */
  ready(): Promise<void> {
    this.#ready ??= this.#rows(
      "CREATE TABLE IF NOT EXISTS demo_profiles (user_id TEXT PRIMARY KEY, display_name TEXT NOT NULL, handle TEXT NOT NULL)",
    ).then(() => undefined, (error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  /** A signed-in user's email, role and profile; undefined when the row is gone. */
  async account(userId: string): Promise<Account | undefined> {
    await this.ready();
    const [user] = await this.#rows(`SELECT email, role FROM ${USERS_TABLE} WHERE id = ?`, Number(userId));
    if (user === undefined) return undefined;
    const [profile] = await this.#rows("SELECT display_name, handle FROM demo_profiles WHERE user_id = ?", userId);
    return {
      email: String(user.email),
      role: String(user.role),
      profile: { name: String(profile?.display_name ?? ""), handle: String(profile?.handle ?? "") },
    };
  }

  /** Saves a profile. Writes run one after another, so the last edit is the one that stays. */
  saveProfile(userId: string, profile: Profile): Promise<void> {
    const write = this.#writes.then(async () => {
      await this.ready();
      await this.#rows(
        "INSERT INTO demo_profiles (user_id, display_name, handle) VALUES (?, ?, ?) " +
          "ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name, handle = excluded.handle",
        userId, profile.name, profile.handle,
      );
    });
    this.#writes = write.catch(() => undefined);
    return write;
  }

  async isAdmin(userId: string): Promise<boolean> {
    const [row] = await this.#rows(`SELECT role FROM ${USERS_TABLE} WHERE id = ?`, Number(userId));
    return row?.role === ADMIN_ROLE;
  }

  /** Whether `userId` is the first user ever registered (the demo makes that user an admin). */
  async isFirstUser(userId: number): Promise<boolean> {
    const [row] = await this.#rows(`SELECT MIN(id) AS first FROM ${USERS_TABLE}`);
    return Number(row?.first) === userId;
  }

  /** Every user with its role and access state, for the admin page. */
  async users(): Promise<UserRow[]> {
    const rows = await this.#rows(
      `SELECT u.id, u.email, u.role, u.disabled_at, a.revoked_at FROM ${USERS_TABLE} u ` +
        `LEFT JOIN ${ACCESS_TABLE} a ON a.user_id = CAST(u.id AS TEXT) ORDER BY u.id`,
    );
    return rows.map((r) => ({
      id: Number(r.id),
      email: String(r.email),
      role: String(r.role),
      disabled: r.disabled_at !== null && r.disabled_at !== undefined,
      revokedAt: r.revoked_at === null || r.revoked_at === undefined ? null : Number(r.revoked_at),
    }));
  }
}
