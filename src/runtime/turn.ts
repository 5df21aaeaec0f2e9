/**
 * Running a callback at the end of the current event-loop turn: after the I/O callbacks the
 * runtime is running now (every request its poll found ready), before it waits for more. Node,
 * Bun and Deno all have setImmediate for exactly this; another host gets a zero timeout.
 */
type Immediate = (callback: () => void) => unknown;

// Read once, at load: a test's fake timers, installed later, do not capture it.
const immediate = (globalThis as { setImmediate?: Immediate }).setImmediate;

export const atTurnEnd: Immediate = immediate !== undefined ? (callback) => immediate(callback) : (callback) => setTimeout(callback, 0);
