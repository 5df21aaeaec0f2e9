/**
 * What each dialect's schema provides (src/db/schema-sqlite.ts, src/db/schema-postgres.ts), apart
 * from src/db/schema.ts, which picks one, so the dialects do not import the module that imports them.
 */
import type { Statement } from "./driver.ts";

/** The statements of one dialect. `builtinId` is set when the canonical id names a users row. */
export interface Schema {
  readonly create: readonly Statement[];
  insertUser(email: string, passwordHash: string, createdAt: number): readonly Statement[];
  findLogin(email: string): Statement;
  setRole(id: number, role: string): Statement;
  readAccess(userId: string): Statement;
  revoke(userId: string, at: number): Statement;
  disable(userId: string, at: number, builtinId: number | undefined): readonly Statement[];
  enable(userId: string, builtinId: number | undefined): readonly Statement[];
}
