/**
 * `npm run bench`: runs every bench/*.bench.ts as a child process under the current runtime, one
 * after another (so they never compete for the CPU), echoes their output, collects their
 * BENCH_JSON rows (and BENCH_SKIP lines) and writes bench/RESULTS.md.
 *
 *   node --import tsx bench/run.ts     (npm run bench)
 *   npx bun bench/run.ts
 *   npx deno run -A bench/run.ts
 *
 * Arguments: words that pick bench files by name (`auth`, `diff`); anything else after `--` is
 * passed to each bench file. RESULTS.md keeps one section per runtime: a run replaces only the
 * section of the runtime it ran on, so the Node, Bun and Deno figures can sit side by side.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type BenchRow, ratioOf } from "./report.ts";

type Runtime = "node" | "bun" | "deno";
type AreaResult = { area: string; runtime: string; rows: BenchRow[] };
type Skip = { area: string; name: string; reason: string };

const g = globalThis as { Bun?: { version: string }; Deno?: { version: { deno: string }; execPath(): string; args: string[] } };
const runtime: Runtime = g.Bun ? "bun" : g.Deno ? "deno" : "node";
const benchDir = fileURLToPath(new URL(".", import.meta.url));
const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const resultsPath = fileURLToPath(new URL("RESULTS.md", import.meta.url));

const argv = g.Deno ? g.Deno.args : process.argv.slice(2);
const split = argv.indexOf("--");
const filters = split < 0 ? argv : argv.slice(0, split);
const passThrough = split < 0 ? [] : argv.slice(split + 1);

/** The command that runs a TypeScript file under the runtime running this script. */
function commandFor(file: string): [string, string[]] {
  switch (runtime) {
    case "bun":
      return [process.execPath, [file, ...passThrough]];
    case "deno":
      return [g.Deno!.execPath(), ["run", "-A", file, ...passThrough]];
    case "node":
      // Node 20 cannot run TypeScript itself: the tsx loader, as `npm test` uses it.
      return [process.execPath, ["--import", "tsx", file, ...passThrough]];
  }
}

function runBench(file: string): Promise<{ code: number; lines: string[] }> {
  const [command, args] = commandFor(file);
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: ["ignore", "pipe", "inherit"] });
    const lines: string[] = [];
    let pending = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      process.stdout.write(chunk);
      pending += chunk;
      const parts = pending.split("\n");
      pending = parts.pop()!;
      lines.push(...parts);
    });
    child.on("error", (error) => {
      console.error(`could not start ${file}: ${error.message}`);
      resolve({ code: -1, lines });
    });
    child.on("close", (code) => {
      if (pending) lines.push(pending);
      resolve({ code: code ?? -1, lines });
    });
  });
}

const format = (value: number) =>
  !Number.isFinite(value) ? String(value) : value >= 100 ? Math.round(value).toLocaleString("en-US") : value.toFixed(value >= 10 ? 1 : 2);

function section(label: string, date: string, areas: AreaResult[], skips: Skip[], failures: string[]): string {
  const out: string[] = [`## ${label}`, "", `Run ${date} on ${label} (${runtimeMachine()}).`, ""];
  for (const area of areas) {
    out.push(`### ${area.area}`, "", "| measure | ours | peer | ratio (>1 = ours better) | target | met |", "|---|---|---|---|---|---|");
    for (const row of area.rows) {
      const info = row.target.startsWith("(");
      out.push(
        `| ${row.name} | ${format(row.ours)} ${row.unit} | ${format(row.peer)} ${row.unit} (${row.peerName}) | ${ratioOf(row).toFixed(2)}x | ${row.target} | ${info ? "-" : row.met ? "yes" : "**NO**"} |`,
      );
    }
    for (const skip of skips.filter((s) => s.area === area.area)) out.push(`| ${skip.name} | skipped | | | ${skip.reason} | skipped |`);
    out.push("");
  }
  for (const skip of skips.filter((s) => !areas.some((a) => a.area === s.area))) out.push(`- ${skip.area}: ${skip.name} skipped: ${skip.reason}`);
  for (const failure of failures) out.push(`- **${failure}**`);
  return out.join("\n").trimEnd() + "\n";
}

function runtimeMachine(): string {
  try {
    const cpus = readFileSync("/proc/cpuinfo", "utf8").split("\n").filter((line) => line.startsWith("processor")).length;
    return `${cpus} CPU${cpus === 1 ? "" : "s"}`;
  } catch {
    return "unknown machine";
  }
}

/** Replaces this runtime's section of RESULTS.md, keeping the others. */
function writeResults(runtimeName: Runtime, body: string): void {
  const begin = `<!-- ${runtimeName}:begin -->`;
  const end = `<!-- ${runtimeName}:end -->`;
  const header =
    "# Benchmark results\n\nWritten by `bench/run.ts` (`npm run bench`, `npx bun bench/run.ts`, `npx deno run -A bench/run.ts`); each bench measures ours and its peers side by side in one process. Do not edit by hand.\n";
  let text = existsSync(resultsPath) ? readFileSync(resultsPath, "utf8") : header;
  const block = `${begin}\n${body}${end}`;
  const start = text.indexOf(begin);
  const stop = text.indexOf(end);
  if (start >= 0 && stop > start) text = text.slice(0, start) + block + text.slice(stop + end.length);
  else {
    // Keep the sections in a fixed order: node, bun, deno.
    const order: Runtime[] = ["node", "bun", "deno"];
    const later = order.slice(order.indexOf(runtimeName) + 1).map((r) => text.indexOf(`<!-- ${r}:begin -->`)).filter((i) => i >= 0);
    const at = later.length ? Math.min(...later) : text.length;
    text = `${text.slice(0, at).trimEnd()}\n\n${block}\n\n${text.slice(at).trimStart()}`;
  }
  writeFileSync(resultsPath, text.trimEnd() + "\n");
}

const files = readdirSync(benchDir)
  .filter((name) => name.endsWith(".bench.ts"))
  .filter((name) => filters.length === 0 || filters.some((filter) => name.includes(filter)))
  .sort();
if (files.length === 0) {
  console.error(`no bench/*.bench.ts file matches ${filters.join(" ")}`);
  process.exit(1);
}

const areas: AreaResult[] = [];
const skips: Skip[] = [];
const failures: string[] = [];
let label = runtime as string;
for (const name of files) {
  console.log(`\n=== ${name} (${runtime})`);
  const { code, lines } = await runBench(`bench/${name}`);
  let reported = false;
  for (const line of lines) {
    if (line.startsWith("BENCH_JSON ")) {
      const result = JSON.parse(line.slice("BENCH_JSON ".length)) as AreaResult;
      areas.push(result);
      label = result.runtime;
      reported = true;
    } else if (line.startsWith("BENCH_SKIP ")) {
      skips.push(JSON.parse(line.slice("BENCH_SKIP ".length)) as Skip);
    }
  }
  if (code !== 0) failures.push(`${name} exited with code ${code}`);
  else if (!reported) failures.push(`${name} printed no BENCH_JSON line`);
}

const date = new Date().toISOString().replace("T", " ").slice(0, 16) + " UTC";
// With a file filter the section still replaces the whole runtime section: say which files ran.
const body = section(label, date, areas, skips, failures) + (filters.length ? `\n(bench files: ${files.join(", ")})\n` : "");
writeResults(runtime, body);
console.log(`\nwrote ${resultsPath}`);
const missed = areas.flatMap((a) => a.rows.filter((r) => !r.met && !r.target.startsWith("(")).map((r) => `${a.area}: ${r.name} vs ${r.peerName}`));
if (missed.length) console.log(`targets missed: ${missed.join("; ")}`);
if (failures.length) {
  console.error(failures.join("\n"));
  process.exit(1);
}
