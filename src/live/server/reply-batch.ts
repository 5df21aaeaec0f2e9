/**
 * Event replies of a busy server go out together, at the end of the event-loop turn that
 * processed them; a lone event is answered at once.
 *
 * Why: in one turn the runtime parses every request its poll found ready and runs each handler
 * to its reply. Written as each is ready, the replies interleave the server's work with socket
 * writes, and each write, whose reader is waiting, pays the kernel's wake-up of that reader; the
 * writes also push the event path's code and data out of the processor's caches between two
 * events. Held to the end of the turn, the events of the turn run back to back and their writes
 * follow one another. Over HTTP on Node (bench/live.bench.ts, 100 sessions) that halved the
 * server's CPU time per event, its system time most of all. A turn holds only what was ready when
 * it began, so a reply waits at most for the other events of its turn.
 *
 * When: a turn that answered two events or more says the server is busy, and the next turn holds
 * its replies; a turn with one reply ends the holding, and replies go out at once until a turn
 * answers two again. An app calling `fetch` in process, one event after another, never holds.
 */
import { atTurnEnd } from "../../runtime/turn.ts";

let repliesThisTurn = 0;
let turnWatched = false;
let holding = false;
let held: (() => void)[] = [];

function turnEnded(): void {
  holding = repliesThisTurn >= 2;
  repliesThisTurn = 0;
  turnWatched = false;
  const release = held;
  held = [];
  for (const resolve of release) resolve();
}

/**
 * Called when an event's reply is ready: undefined to send it now, or a promise that resolves
 * when the turn ends, to send it then.
 */
export function replyHold(): Promise<void> | undefined {
  repliesThisTurn += 1;
  if (!turnWatched) {
    turnWatched = true;
    atTurnEnd(turnEnded);
  }
  if (!holding) return undefined;
  return new Promise((resolve) => held.push(resolve));
}
