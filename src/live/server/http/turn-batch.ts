/**
 * Event batching by event-loop turn: on a busy server, the events that arrive in one turn are
 * processed together at its end, one after another, and their replies written one after another;
 * a lone event is processed at once.
 *
 * Why: in one turn the runtime reads every request its poll found ready. Handled as each is read,
 * the events interleave the runtime's HTTP work with the app's (render, diff, reply) and each
 * reply's socket write, which pays the kernel's wake-up of a waiting reader; each phase pushes the
 * others' code and data out of the processor's caches. Deferred to the end of the turn, the
 * requests are read back to back, then the events run back to back with their code and the
 * session data they share kept warm, then the replies go out back to back. Over HTTP on Node
 * (bench/live.bench.ts, 100 sessions) that cuts the server's CPU time per event, user and system
 * both, and raises events/s (the figures are in bench/RESULTS.md). A turn holds only what was
 * ready when it began, so an event waits at most for the other events of its turn.
 *
 * When: a turn that received two events or more says the server is busy, and the next turn holds
 * its events; a turn with one event ends the holding, and events are processed at once until a
 * turn receives two again. An app calling `fetch` in process, one event after another, never
 * holds. Events of one session keep their order: they are released in arrival order, and the
 * session's mutex takes them in that order.
 */
import { atTurnEnd } from "../../../runtime/turn.ts";

/** Events received in the current turn; the first one schedules `turnEnded`. */
let eventsThisTurn = 0;
let holding = false;
let held: (() => void)[] = [];

function turnEnded(): void {
  holding = eventsThisTurn >= 2;
  eventsThisTurn = 0;
  const release = held;
  held = [];
  for (const resolve of release) resolve();
}

/**
 * Called when an event arrives: undefined to process it now, or a promise that resolves at the
 * end of the turn, to process it then.
 */
export function eventHold(): Promise<void> | undefined {
  if (eventsThisTurn++ === 0) atTurnEnd(turnEnded);
  if (!holding) return undefined;
  return new Promise((resolve) => held.push(resolve));
}
