/**
 * The demo's own queries: profiles and to-do lists (small tables of its own, one row per user, so
 * they follow the user to every device) and the admin's view of the
 * built-in users table and the shared revocation table (docs/auth.md#users-table).
 * Every statement is parameterised; `?` placeholders become `$n` on Postgres.
 */
import { ACCESS_TABLE, type Db, type DbStatement, type SqlValue, USERS_TABLE } from "../../src/mod.ts";

export type Profile = { readonly name: string; readonly handle: string };
export type Account = { readonly email: string; readonly role: string; readonly profile: Profile; readonly items: readonly Item[] };
export type UserRow = {
  readonly id: number;
  readonly email: string;
  readonly role: string;
  readonly disabled: boolean;
  readonly revokedAt: number | null;
};

export type Item = { readonly id: number; readonly text: string };

export const ADMIN_ROLE = "admin";

/** The list of a user who never saved one. */
export const SAMPLE_ITEMS: readonly Item[] = [
  { id: 1, text: "Write the view" },
  { id: 2, text: "Handle the messages" },
  { id: 3, text: "Ship it" },
];

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

  /** Creates the demo's tables once per process (idempotent: other replicas may race it). */
  ready(): Promise<void> {
    this.#ready ??= Promise.all([
      this.#rows("CREATE TABLE IF NOT EXISTS demo_profiles (user_id TEXT PRIMARY KEY, display_name TEXT NOT NULL, handle TEXT NOT NULL)"),
      // The list as one JSON document per user: it is read and written whole, never queried inside.
      this.#rows("CREATE TABLE IF NOT EXISTS demo_todos (user_id TEXT PRIMARY KEY, items TEXT NOT NULL)"),
    ]).then(() => undefined, (error: unknown) => {
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
    const [todos] = await this.#rows("SELECT items FROM demo_todos WHERE user_id = ?", userId);
    return {
      email: String(user.email),
      role: String(user.role),
      profile: { name: String(profile?.display_name ?? ""), handle: String(profile?.handle ?? "") },
      // A user who never saved a list starts with the sample one.
      items: todos === undefined ? SAMPLE_ITEMS : parseItems(todos.items),
    };
  }

  /** Saves a user's whole list; like profiles, writes run in order and the last one stays. */
  saveItems(userId: string, items: readonly Item[]): Promise<void> {
    return this.#write(() =>
      this.#rows(
        "INSERT INTO demo_todos (user_id, items) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET items = excluded.items",
        userId,
        JSON.stringify(items),
      )
    );
  }

  /** Saves a profile. Writes run one after another, so the last edit is the one that stays. */
  saveProfile(userId: string, profile: Profile): Promise<void> {
    return this.#write(() =>
      this.#rows(
        "INSERT INTO demo_profiles (user_id, display_name, handle) VALUES (?, ?, ?) " +
          "ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name, handle = excluded.handle",
        userId,
        profile.name,
        profile.handle,
      )
    );
  }

  /** Runs `work` after every earlier write of this process, so saves land in the order they were asked. */
  #write(work: () => Promise<unknown>): Promise<void> {
    const write = this.#writes.then(async () => {
      await this.ready();
      await work();
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

/** A stored list; anything that is not a list of {id, text} reads as empty. */
function parseItems(json: unknown): readonly Item[] {
  try {
    const value: unknown = JSON.parse(String(json));
    if (!Array.isArray(value)) return [];
    return value.flatMap((item: unknown) => {
      const { id, text } = (item ?? {}) as Record<string, unknown>;
      return typeof id === "number" && Number.isSafeInteger(id) && typeof text === "string" ? [{ id, text }] : [];
    });
  } catch {
    return [];
  }
}
