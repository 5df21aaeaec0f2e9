/**
 * Group commit of session saves (docs/deployment.md#group-commit): the saves that one event-loop
 * turn produces, across sessions, go to Postgres together at the turn's end, in one transaction
 * whose statements are pipelined on one connection; a lone save goes as one statement, as before.
 *
 * Invariants:
 * - each save is its own statement, fenced on its own row exactly as when it goes alone (the
 *   epoch, and a claim's row version), so a save that loses its fence updates no row and gets no
 *   row back: it fails alone (its caller is told false and processes its event again) while the
 *   others of the group commit;
 * - each caller gets its own statement's rows, and only once the group has committed, so nothing
 *   of a save is published or answered before it is durable;
 * - a statement that errors fails the transaction, and with it every save of the group: each
 *   caller's promise rejects, as for a failed store (the event is answered 503 and sent again);
 * - a group's statements go in the order of their rows' keys, whatever order the turn made them
 *   in: each save locks its row until the group commits, so two replicas' groups that took the same
 *   rows in opposite orders would each wait for the other (Postgres ends one as a deadlock, and all
 *   its events are answered 503). Behind a round-robin balancer the sessions' events alternate
 *   between replicas, so this is the common case, not a rare one. In one order, one group waits for
 *   the other and then goes on. The store's lease renewal, which updates many rows in one
 *   statement, locks them in the same order (postgres.ts `renew`).
 */
import type { Db } from "../../db/db.ts";
import type { Row, Statement } from "../../db/driver.ts";
import { atTurnEnd } from "../../runtime/turn.ts";

/** A save waiting for its turn's end; `row`: its row's app and key, the order of the group's locks. */
type Waiting = {
  readonly statement: Statement;
  readonly row: string;
  readonly resolve: (rows: readonly Row[]) => void;
  readonly reject: (error: unknown) => void;
};

export class SaveGroup {
  /** The saves of the current turn; made by the turn's first save, which schedules the flush. */
  private waiting: Waiting[] | undefined;

  constructor(private readonly db: Db) {}

  /**
   * Runs `statement` with the other saves of this turn; resolves to its own rows once they
   * committed. `row` names the row it writes (the group takes its rows in this order).
   */
  run(statement: Statement, row: string): Promise<readonly Row[]> {
    return new Promise((resolve, reject) => {
      if (this.waiting === undefined) {
        this.waiting = [];
        atTurnEnd(() => void this.flush());
      }
      this.waiting.push({ statement, row, resolve, reject });
    });
  }

  private async flush(): Promise<void> {
    // Sorted by row, stable: two saves of one session keep their order.
    // Code-unit order, the order of Postgres's "C" collation for the keys' hex (as the store's renew locks them).
    const group = (this.waiting ?? []).sort((a, b) => (a.row < b.row ? -1 : a.row > b.row ? 1 : 0));
    this.waiting = undefined;
    if (group.length === 1) {
      const only = group[0]!;
      const result = await this.db.query(only.statement);
      if (result.ok) only.resolve(result.value);
      else only.reject(result.error);
      return;
    }
    const result = await this.db.transaction(group.map((save) => save.statement));
    if (!result.ok) {
      for (const save of group) save.reject(result.error);
      return;
    }
    for (const [i, save] of group.entries()) save.resolve(result.value[i] ?? []);
  }
}
