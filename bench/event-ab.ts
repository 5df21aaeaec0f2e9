/**
 * The event path of two checkouts side by side (A/B): for a change that must not slow an event,
 * e.g. a refactoring of src/live/server. Both checkouts' live apps are loaded into this one
 * process (each its own copy of src/, from its own bench/live-app.ts) and sent events in short
 * rounds that alternate A, B, B, A, ..., so that each pair of adjacent rounds sees nearly the
 * same machine; what counts is the median over the pairs of B against A, in CPU time per event
 * (user and system, which other processes on the machine disturb far less than a rate) and in
 * events/s. Two ways: one tab sending back to back, and 100 sessions served round-robin.
 * Figures go to bench/RESULTS.md.
 *
 *   tsx bench/event-ab.ts <checkout A> <checkout B> [pairs] [round ms]
 *
 * A checkout is a directory with src/ and bench/live-app.ts (e.g. `git worktree add`, or
 * `git archive <rev> | tar -x -C <dir>` with node_modules linked in).
 */
import process from "node:process";
import { pathToFileURL } from "node:url";

type Creds = unknown;
type Fetch = (req: Request) => Response | Promise<Response>;
type LiveAppModule = {
  formApp(options?: object): { fetch: Fetch; close(): void };
  openSession(fetch: Fetch, origin: string): Promise<Creds>;
  eventBody(creds: Creds, seq: number): string;
  eventRequest(origin: string, creds: Creds, body: string): Request;
};
type Round = { readonly rate: number; readonly cpuUs: number };

const [a, b, pairsArg, roundMsArg] = process.argv.slice(2);
if (a === undefined || b === undefined) throw new Error("usage: tsx bench/event-ab.ts <checkout A> <checkout B> [pairs] [round ms]");
const pairs = Number(pairsArg ?? 40);
const roundMs = Number(roundMsArg ?? 150);
const origin = "http://bench.test";

/** One checkout's form app with `count` open sessions, and a round of events against it. */
async function sideOf(root: string, count: number) {
  const mod = (await import(pathToFileURL(`${root}/bench/live-app.ts`).href)) as LiveAppModule;
  const app = mod.formApp();
  const sessions: Creds[] = [];
  for (let i = 0; i < count; i++) sessions.push(await mod.openSession(app.fetch, origin));
  const seqs = sessions.map(() => 0);
  let next = 0;
  return {
    close: () => app.close(),
    async round(ms: number): Promise<Round> {
      let done = 0;
      const cpu = process.cpuUsage();
      const start = performance.now();
      let elapsed = 0;
      while (elapsed < ms) {
        for (let i = 0; i < 16; i++) {
          const k = next++ % sessions.length;
          seqs[k]! += 1;
          const resp = await app.fetch(mod.eventRequest(origin, sessions[k], mod.eventBody(sessions[k], seqs[k]!)));
          if (resp.status !== 200) throw new Error(`event answered ${resp.status}: ${await resp.text()}`);
          await resp.text();
        }
        done += 16;
        elapsed = performance.now() - start;
      }
      const used = process.cpuUsage(cpu);
      return { rate: (done * 1000) / elapsed, cpuUs: (used.user + used.system) / done };
    },
  };
}

const median = (xs: readonly number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

async function compare(way: string, count: number): Promise<void> {
  const sideA = await sideOf(a!, count);
  const sideB = await sideOf(b!, count);
  for (let w = 0; w < 4; w++) {
    await sideA.round(300);
    await sideB.round(300);
  }
  const cpu: number[] = [];
  const rate: number[] = [];
  const cpuA: number[] = [];
  const cpuB: number[] = [];
  for (let p = 0; p < pairs; p++) {
    // Alternate who goes first, so neither always runs right after the other's garbage.
    const [first, second] = p % 2 === 0 ? [sideA, sideB] : [sideB, sideA];
    const one = await first.round(roundMs);
    const two = await second.round(roundMs);
    const [ra, rb] = p % 2 === 0 ? [one, two] : [two, one];
    cpu.push(rb.cpuUs / ra.cpuUs);
    rate.push(rb.rate / ra.rate);
    cpuA.push(ra.cpuUs);
    cpuB.push(rb.cpuUs);
  }
  sideA.close();
  sideB.close();
  console.log(
    `${way}, ${pairs} pairs of ${roundMs} ms rounds: median CPU µs/event A ${median(cpuA).toFixed(1)}, B ${median(cpuB).toFixed(1)}; ` +
      `median over the pairs of B/A: CPU per event ${median(cpu).toFixed(3)}, events/s ${median(rate).toFixed(3)} ` +
      `(middle half of the pairs' CPU ratios ${[...cpu].sort((x, y) => x - y)[Math.floor(pairs / 4)]!.toFixed(3)} to ${
        [...cpu].sort((x, y) => x - y)[Math.floor((3 * pairs) / 4)]!.toFixed(3)
      })`,
  );
}

await compare("one tab", 1);
await compare("100 sessions round-robin", 100);
