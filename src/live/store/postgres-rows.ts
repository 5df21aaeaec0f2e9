/**
 * The live store's rows on Postgres as its records, and back (src/live/store/postgres.ts).
 */
import type { RotatedFrom, StoredSession } from "./store.ts";

/** A row as the driver gives it. */
export type Row = Readonly<Record<string, unknown>>;

/** The rotations into a session still in their grace period, from the row's `rotated_from` JSON. */
export function rotatedFromOf(row: Row): RotatedFrom[] {
  if (row.rotated_from === null || row.rotated_from === undefined) return [];
  const rotated = JSON.parse(String(row.rotated_from)) as { h: string; s: string; ms: number }[];
  return rotated.map((r) => ({ fromHandle: r.h, fromSealed: r.s, remainingMs: Number(r.ms) }));
}

/** A stored session from its row. */
export function sessionOf(row: Row): StoredSession {
  return {
    key: String(row.key),
    handle: String(row.handle),
    model: String(row.model),
    outSeq: Number(row.out_seq),
    inputSeqs: JSON.parse(String(row.input_seqs)) as [string, number][],
    pageSeqs: JSON.parse(String(row.page_seqs)) as [string, number][],
    user: row.user_id === null || row.user_id === undefined ? undefined : String(row.user_id),
    boundAt: Number(row.bound_at),
  };
}

/** A session's values in the order of COLUMNS, as the INSERT and the fenced UPDATE both bind them ($2-$9). */
export function sessionColumns(session: StoredSession) {
  return [
    session.key,
    session.handle,
    session.model,
    session.outSeq,
    JSON.stringify(session.inputSeqs),
    JSON.stringify(session.pageSeqs),
    session.user ?? null,
    session.boundAt,
  ] as const;
}
