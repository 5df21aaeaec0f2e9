/**
 * Shared output of the benchmark files: each bench measures ours and a peer in the same run and
 * reports one row per target. `npm run bench` (bench/run.ts) runs every bench file and collects
 * the rows into bench/RESULTS.md.
 */
export type BenchRow = {
  /** What was measured, e.g. "HS256 sign". */
  readonly name: string;
  /** Our figure and its unit, e.g. 250000 "ops/s". */
  readonly ours: number;
  /** The peer's figure measured in the same run, and the peer's name. */
  readonly peer: number;
  readonly peerName: string;
  readonly unit: string;
  /** ours / peer when higher is better, peer / ours when lower is better: above 1 means we win. */
  readonly higherIsBetter: boolean;
  /** The target, as text ("ratio >= 20x"), and whether this run met it. */
  readonly target: string;
  readonly met: boolean;
};

export function ratioOf(row: Pick<BenchRow, "ours" | "peer" | "higherIsBetter">): number {
  return row.higherIsBetter ? row.ours / row.peer : row.peer / row.ours;
}

/** The runtime and its version, as each section of bench/RESULTS.md is headed ("node v20.20.2"). */
export function runtimeLabel(): string {
  const g = globalThis as { Bun?: { version: string }; Deno?: { version: { deno: string } }; process?: { version: string } };
  if (g.Bun) return `bun ${g.Bun.version}`;
  if (g.Deno) return `deno ${g.Deno.version.deno}`;
  return `node ${g.process?.version ?? "?"}`;
}

const format = (value: number) => value >= 100 ? Math.round(value).toLocaleString("en-US") : value.toFixed(value >= 10 ? 1 : 2);

/** Prints the rows as a table and, for bench/run.ts, one machine-readable JSON line. */
export function report(area: string, rows: BenchRow[]): void {
  console.log(`\n${area} (${runtimeLabel()})`);
  console.log("| measure | ours | peer | ratio (>1 = ours better) | target | met |");
  console.log("|---|---|---|---|---|---|");
  for (const row of rows) {
    console.log(
      `| ${row.name} | ${format(row.ours)} ${row.unit} | ${format(row.peer)} ${row.unit} (${row.peerName}) | ${
        ratioOf(row).toFixed(2)
      }x | ${row.target} | ${row.met ? "yes" : "NO"} |`,
    );
  }
  console.log(`BENCH_JSON ${JSON.stringify({ area, runtime: runtimeLabel(), rows })}`);
}

/** The median of a list of figures. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Of rounds measured in pairs, ours and the peer's one after the other, the pair whose ratio
 * (ours / peer) is the median of the pairs' ratios, as measured. On a shared machine the speed of
 * the whole machine drifts from round to round, by half at times; a pair's two rounds see nearly
 * the same machine, so the ratio of a pair says more than the ratio of two medians taken apart.
 */
export function medianPair(ours: readonly number[], peer: readonly number[]): { ours: number; peer: number } {
  const pairs = ours.map((value, i) => ({ ours: value, peer: peer[i]! })).sort((a, b) => a.ours / a.peer - b.ours / b.peer);
  // An even count takes the lower middle pair: a figure measured, never one made up between two.
  return pairs[(pairs.length - 1) >> 1]!;
}

/** The p-th percentile of an already sorted list. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
