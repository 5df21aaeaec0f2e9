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
 * passed to each bench file. `--redraw` only redraws bench/ratios.svg from RESULTS.md. RESULTS.md keeps one section per runtime: a run replaces only the
 * section of the runtime it ran on, so the Node, Bun and Deno figures can sit side by side. Each
 * section also records the machine's load average at the start and end of the run (the machine may
 * be shared), and keeps its rows as JSON in an HTML comment, from which every run redraws
 * bench/ratios.svg: one bar per row and runtime, ours against the peer, with the row's target.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type BenchRow, ratioOf, runtimeLabel } from "./report.ts";

type Runtime = "node" | "bun" | "deno";
type AreaResult = { area: string; runtime: string; rows: BenchRow[] };
type Skip = { area: string; name: string; reason: string };

const g = globalThis as { Bun?: { version: string }; Deno?: { version: { deno: string }; execPath(): string; args: string[] } };
const runtime: Runtime = g.Bun ? "bun" : g.Deno ? "deno" : "node";
const benchDir = fileURLToPath(new URL(".", import.meta.url));
const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const resultsPath = fileURLToPath(new URL("RESULTS.md", import.meta.url));
const chartPath = fileURLToPath(new URL("ratios.svg", import.meta.url));

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

function runBench(file: string): Promise<{ code: number; lines: string[]; lastError: string | undefined }> {
  const [command, args] = commandFor(file);
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
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
    // stderr passes through; its last error line is kept, to say in RESULTS.md why a bench failed.
    let lastError: string | undefined;
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      process.stderr.write(chunk);
      for (const raw of chunk.split("\n")) {
        // deno-lint-ignore no-control-regex
        const line = raw.replace(/\u001b\[[0-9;]*m/g, "").trim();
        if (
          /^(?:error: )?(?:Uncaught \(in promise\) )?[A-Za-z]*(?:Error|Exception|IssuedAt|Expired)\b.*?:/.test(line) || /^error:/.test(line)
        ) lastError = line;
      }
    });
    child.on("error", (error) => {
      console.error(`could not start ${file}: ${error.message}`);
      resolve({ code: -1, lines, lastError: error.message });
    });
    child.on("close", (code) => {
      if (pending) lines.push(pending);
      resolve({ code: code ?? -1, lines, lastError });
    });
  });
}

const format = (value: number) =>
  !Number.isFinite(value) ? String(value) : value >= 100 ? Math.round(value).toLocaleString("en-US") : value.toFixed(value >= 10 ? 1 : 2);

/** What a section keeps of its run, as JSON in an HTML comment, for the chart. */
type SectionData = {
  runtime: Runtime;
  label: string;
  date: string;
  load: { start: string; end: string };
  areas: AreaResult[];
  skips: Skip[];
  failures?: string[];
  /**
   * A run of some bench files only: the areas it ran, and when the section's other areas were run
   * (`areaDates`, each area's own run; `othersFrom`, one date for all of them, in older sections).
   */
  partial?: { ran: string[]; othersFrom: string; areaDates?: Record<string, string> };
};
const DATA_MARK = "<!-- bench-data ";

function section(data: SectionData): string {
  const { label, date, areas, skips, load } = data;
  const failures = data.failures ?? [];
  const out: string[] = [
    `## ${label}`,
    "",
    `Run ${date} on ${label} (${runtimeMachine()}). Load average (1, 5, 15 min) at the start: ${load.start}; at the end: ${load.end}. The machine may be shared: a load near or above the CPU count means other work ran beside the benches.`,
    "",
  ];
  if (data.partial) {
    const byDate = new Map<string, string[]>();
    for (const area of areas) {
      const ran = data.partial.areaDates?.[area.area] ?? (data.partial.ran.includes(area.area) ? date : data.partial.othersFrom);
      byDate.set(ran, [...(byDate.get(ran) ?? []), area.area]);
    }
    const runs = [...byDate].sort(([a], [b]) => (a < b ? 1 : -1)).map(([ran, names]) => `${names.join(", ")}: ${ran}`);
    out.push(`Not every area ran at once; the areas by the run they come from: ${runs.join("; ")}.`, "");
  }
  for (const area of areas) {
    out.push(`### ${area.area}`, "", "| measure | ours | peer | ratio (>1 = ours better) | target | met |", "|---|---|---|---|---|---|");
    for (const row of area.rows) {
      const info = row.target.startsWith("(");
      out.push(
        `| ${row.name} | ${format(row.ours)} ${row.unit} | ${format(row.peer)} ${row.unit} (${row.peerName}) | ${
          ratioOf(row).toFixed(2)
        }x | ${row.target} | ${info ? "-" : row.met ? "yes" : "**NO**"} |`,
      );
    }
    for (const skip of skips.filter((s) => s.area === area.area)) out.push(`| ${skip.name} | skipped | | | ${skip.reason} | skipped |`);
    out.push("");
  }
  for (const skip of skips.filter((s) => !areas.some((a) => a.area === s.area))) {
    out.push(`- ${skip.area}: ${skip.name} skipped: ${skip.reason}`);
  }
  for (const failure of failures) out.push(`- **${failure}**`);
  // "--" cannot appear inside an HTML comment; in JSON text it can only sit inside a string.
  out.push("", `${DATA_MARK}${JSON.stringify(data).replace(/--/g, "-\\u002d")} -->`);
  return out.join("\n").trimEnd() + "\n";
}

function loadAverage(): string {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  } catch {
    return "unknown";
  }
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
    "# Benchmark results\n\nWritten by `bench/run.ts` (`npm run bench`, `npx bun bench/run.ts`, `npx deno run -A bench/run.ts`); each bench measures ours and its peers side by side in one process. Do not edit the runtimes' sections by hand; the notes after them are written with the change they measured. The ratios of every section are drawn in [ratios.svg](ratios.svg).\n";
  let text = existsSync(resultsPath) ? readFileSync(resultsPath, "utf8") : header;
  // Keep the header current: everything before the first section is the runner's own text.
  const first = text.indexOf("<!-- ");
  text = first >= 0 ? `${header}\n${text.slice(first)}` : header;
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

// ---------------------------------------------------------------------------------------------
// bench/ratios.svg, drawn from every section of RESULTS.md

/** The sections' data, read back from their HTML comments, in the file's order (node, bun, deno). */
function readSections(text: string): SectionData[] {
  const out: SectionData[] = [];
  let at = text.indexOf(DATA_MARK);
  while (at >= 0) {
    const end = text.indexOf(" -->", at);
    if (end < 0) break;
    try {
      out.push(JSON.parse(text.slice(at + DATA_MARK.length, end)) as SectionData);
    } catch {
      // A damaged comment leaves that runtime out of the chart; the tables stay as they are.
    }
    at = text.indexOf(DATA_MARK, end);
  }
  return out;
}

/**
 * The ratio a row must reach to meet its target, read from the target's text:
 *   "ratio >= 20x"                       20
 *   "ours <= 1.35x native", "time <= 1.0x peer"
 *                                        1 / 1.35, 1 / 1.0 (lower is better: ratio = peer / ours)
 *   "ours <= 15 ms", "<= 150 B (...)"    peer / 15, peer / 150 (an absolute bound, drawn as a ratio
 *                                        of this row's peer)
 *   "ours >= 500 ops/s"                  500 / peer
 *   "(info)", "report", anything else:   no target mark.
 */
function targetRatio(row: BenchRow): number | undefined {
  const text = row.target.trim();
  if (text.startsWith("(")) return undefined;
  const ratio = /^ratio\s*>=\s*([\d.]+)\s*x/i.exec(text);
  if (ratio) return Number(ratio[1]);
  const bound = /^(?:ours|time)?\s*(<=|>=)\s*([\d.]+)\s*(x\b)?/i.exec(text);
  if (!bound) return undefined;
  const n = Number(bound[2]);
  if (!(n > 0)) return undefined;
  if (bound[3]) return bound[1] === "<=" ? 1 / n : n;
  if (!(row.peer > 0)) return undefined;
  return bound[1] === "<=" ? row.peer / n : n / row.peer;
}

const RUNTIME_COLORS: Record<Runtime, string> = { node: "#2f8f46", bun: "#c9821b", deno: "#3b6fd4" };

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const ratioText = (r: number) => (r >= 10 ? r.toFixed(1) : r.toFixed(2)) + "x";

/**
 * A horizontal bar chart on a log scale: one group per area, one line per measure and peer, one
 * bar per runtime growing from the parity line (1.0) to the right when ours is better and to the
 * left when the peer is; a black tick marks the ratio the target asks for.
 */
function renderChart(sections: SectionData[]): string {
  type Line = {
    key: string;
    name: string;
    peer: string;
    bars: Map<Runtime, { ratio: number; target: number | undefined; met: boolean; info: boolean }>;
  };
  const groups = new Map<string, Map<string, Line>>();
  for (const sec of sections) {
    for (const area of sec.areas) {
      const lines = groups.get(area.area) ?? new Map<string, Line>();
      groups.set(area.area, lines);
      for (const row of area.rows) {
        const ratio = ratioOf(row);
        if (!Number.isFinite(ratio) || ratio <= 0) continue;
        const key = `${row.name}\u0000${row.peerName}`;
        const line = lines.get(key) ?? { key, name: row.name, peer: row.peerName, bars: new Map() };
        lines.set(key, line);
        const target = targetRatio(row);
        // A row without a target the chart can read ("(info)", "report") is drawn pale, unless it failed.
        line.bars.set(sec.runtime, { ratio, target, met: row.met, info: row.target.startsWith("(") || (target === undefined && row.met) });
      }
    }
  }
  const runtimes = sections.map((sec) => sec.runtime);
  const values = [...groups.values()].flatMap((lines) =>
    [...lines.values()].flatMap((l) => [...l.bars.values()].flatMap((b) => [b.ratio, b.target ?? 1]))
  );
  // The axis: whole 1-2-5 steps around every ratio and target, from at most 0.01x to 1000x.
  const lo = Math.max(0.01, Math.min(0.5, ...values));
  const hi = Math.min(1000, Math.max(2, ...values));
  const ticks: number[] = [];
  for (let e = -2; e <= 3; e++) for (const m of [1, 2, 5]) ticks.push(m * 10 ** e);
  const first = [...ticks].reverse().find((t) => t <= lo) ?? 0.01;
  const last = ticks.find((t) => t >= hi) ?? 1000;
  const shown = ticks.filter((t) => t >= first && t <= last);

  const width = 1100;
  const labelWidth = 500;
  const plotLeft = labelWidth + 20;
  const plotRight = width - 80;
  const x = (r: number) =>
    plotLeft +
    ((Math.log10(Math.min(last, Math.max(first, r))) - Math.log10(first)) / (Math.log10(last) - Math.log10(first))) *
      (plotRight - plotLeft);
  const barHeight = 9;
  const lineHeight = Math.max(34, runtimes.length * (barHeight + 2) + 10);
  const body: string[] = [];
  let y = 128;

  for (const [area, lines] of groups) {
    body.push(`<text x="12" y="${y + 16}" class="area">${escapeXml(area)}</text>`);
    body.push(`<line x1="12" x2="${width - 12}" y1="${y + 22}" y2="${y + 22}" class="rule"/>`);
    y += 30;
    for (const line of lines.values()) {
      body.push(`<g><title>${escapeXml(`${line.name} vs ${line.peer}`)}</title>`);
      body.push(`<text x="20" y="${y + 13}" class="name">${escapeXml(clip(line.name, 78))}</text>`);
      body.push(`<text x="20" y="${y + 27}" class="peer">${escapeXml(clip(`vs ${line.peer}`, 90))}</text>`);
      runtimes.forEach((rt, i) => {
        const bar = line.bars.get(rt);
        const top = y + 4 + i * (barHeight + 2);
        if (!bar) {
          body.push(`<text x="${x(1) + 4}" y="${top + barHeight - 1}" class="none">${rt}: no row</text>`);
          return;
        }
        const from = Math.min(x(1), x(bar.ratio));
        const to = Math.max(x(1), x(bar.ratio));
        const missed = !bar.info && !bar.met;
        body.push(
          `<rect x="${from.toFixed(1)}" y="${top}" width="${Math.max(1, to - from).toFixed(1)}" height="${barHeight}" fill="${
            RUNTIME_COLORS[rt]
          }"${bar.info ? ' fill-opacity="0.45"' : ""}${missed ? ' stroke="#c62828" stroke-width="1.5"' : ""}><title>${
            escapeXml(`${rt}: ${ratioText(bar.ratio)}${bar.info ? " (informational)" : missed ? " — target missed" : " — target met"}`)
          }</title></rect>`,
        );
        if (bar.target !== undefined) {
          const tx = x(bar.target).toFixed(1);
          body.push(`<line x1="${tx}" x2="${tx}" y1="${top - 3}" y2="${top + barHeight + 3}" class="target"/>`);
        }
        const labelX = Math.max(x(bar.ratio), bar.target !== undefined ? x(bar.target) : 0, x(1)) + 5;
        body.push(
          `<text x="${labelX.toFixed(1)}" y="${top + barHeight - 1}" class="value${missed ? " missed" : ""}">${ratioText(bar.ratio)}${
            bar.info ? "" : missed ? " ✗" : " ✓"
          }</text>`,
        );
      });
      body.push("</g>");
      y += lineHeight;
    }
    y += 8;
  }

  // What the bars cannot show: skipped rows and failed bench files, per runtime.
  const notes = sections.flatMap((sec) => [
    ...sec.skips.map((skip) => `${sec.runtime}: ${skip.area}: ${skip.name}: skipped (${skip.reason})`),
    ...(sec.failures ?? []).map((failure) => `${sec.runtime}: FAILED ${failure}`),
  ]);
  const plotBottom = y;
  if (notes.length) {
    body.push(`<text x="12" y="${y + 16}" class="area">Not drawn</text>`);
    y += 24;
    for (const note of notes) {
      body.push(
        `<text x="20" y="${y + 12}" class="${note.includes(": FAILED ") ? "peer missed" : "peer"}">${escapeXml(clip(note, 150))}<title>${
          escapeXml(note)
        }</title></text>`,
      );
      y += 16;
    }
  }

  const axisTop = 124;
  const axis: string[] = [];
  for (const t of shown) {
    const tx = x(t).toFixed(1);
    axis.push(`<line x1="${tx}" x2="${tx}" y1="${axisTop}" y2="${plotBottom}" class="${t === 1 ? "parity" : "grid"}"/>`);
    axis.push(`<text x="${tx}" y="${axisTop - 4}" class="tick">${t}x</text>`);
  }
  const legendRuntimes = sections
    .map((sec, i) => {
      const lx = 20 + i * 340;
      return `<rect x="${lx}" y="74" width="14" height="10" fill="${RUNTIME_COLORS[sec.runtime]}"/><text x="${
        lx + 20
      }" y="83" class="legend">${escapeXml(`${sec.label}, ${sec.date} (load ${sec.load.start.split(" ")[0]})`)}</text>`;
    })
    .join("");
  const height = y + 16;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif">`,
    "<style>",
    ".title{font-size:18px;font-weight:600;fill:#111}.legend{font-size:12px;fill:#333}.area{font-size:15px;font-weight:600;fill:#111}",
    ".name{font-size:12px;fill:#111}.peer{font-size:11px;fill:#666}.value{font-size:10px;fill:#222}.missed{fill:#c62828;font-weight:600}.none{font-size:10px;fill:#999}",
    ".tick{font-size:10px;fill:#555;text-anchor:middle}.grid{stroke:#e3e3e3;stroke-width:1}.parity{stroke:#444;stroke-width:1.2}.rule{stroke:#ccc;stroke-width:1}.target{stroke:#000;stroke-width:2.5}",
    "</style>",
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="20" y="28" class="title">svc benchmarks: ours vs peer, as a ratio (log scale)</text>`,
    `<text x="20" y="48" class="legend">ratio &gt; 1 means ours is better (more per second, or less time or memory); 1.0 = parity (the dark line). Bars grow from parity.</text>`,
    `<text x="20" y="64" class="legend">Black tick: the ratio the row's target asks for; ✓ met, ✗ missed (red outline); pale bars are informational rows without a target.</text>`,
    legendRuntimes,
    `<text x="20" y="100" class="legend">${
      sections.length === 0
        ? "no section of RESULTS.md carries data yet"
        : `from bench/RESULTS.md; an absolute target (e.g. "ours &lt;= 15 ms") is drawn as that bound relative to the row's peer`
    }</text>`,
    ...axis,
    ...body,
    "</svg>",
    "",
  ].join("\n");
}

/** When an area of a section ran: its own date, else the date of the run that wrote the section. */
function dateOfArea(sec: SectionData, area: string): string {
  return sec.partial?.areaDates?.[area] ??
    (sec.partial === undefined || sec.partial.ran.includes(area) ? sec.date : sec.partial.othersFrom);
}

/**
 * `--merge`: after merging two branches that each ran benches, a runtime's section of RESULTS.md
 * holds two data comments. Rebuild each such section from them, each area taken from the comment
 * in which it ran last, and redraw the chart; nothing runs.
 */
function mergeSections(text: string): void {
  const byRuntime = new Map<Runtime, SectionData[]>();
  for (const sec of readSections(text)) byRuntime.set(sec.runtime, [...(byRuntime.get(sec.runtime) ?? []), sec]);
  for (const [name, secs] of byRuntime) {
    if (secs.length < 2) continue;
    const newest = new Map<string, { area: AreaResult; skips: Skip[]; date: string }>();
    for (const sec of secs) {
      for (const area of sec.areas) {
        const date = dateOfArea(sec, area.area);
        const seen = newest.get(area.area);
        if (seen === undefined || seen.date < date) {
          newest.set(area.area, {
            area,
            skips: sec.skips.filter((s) => s.area === area.area),
            date,
          });
        }
      }
    }
    const latest = secs.reduce((a, b) => (a.date >= b.date ? a : b));
    const kept = [...newest.values()];
    const merged: SectionData = {
      ...latest,
      areas: kept.map(({ area }) => area),
      skips: kept.flatMap(({ skips }) => skips),
      failures: [],
      partial: { ran: [], othersFrom: latest.date, areaDates: Object.fromEntries(kept.map(({ area, date }) => [area.area, date])) },
    };
    // The section's text is rebuilt whole: the begin/end markers bound it, so both comments go.
    const begin = `<!-- ${name}:begin -->`;
    const end = `<!-- ${name}:end -->`;
    const current = readFileSync(resultsPath, "utf8");
    const start = current.indexOf(begin);
    const stop = current.indexOf(end);
    if (start < 0 || stop < start) continue;
    writeFileSync(resultsPath, current.slice(0, start) + `${begin}\n${section(merged)}${end}` + current.slice(stop + end.length));
    console.log(`merged ${secs.length} runs of the ${name} section`);
  }
}

if (filters.includes("--merge")) {
  mergeSections(existsSync(resultsPath) ? readFileSync(resultsPath, "utf8") : "");
  writeFileSync(chartPath, renderChart(readSections(readFileSync(resultsPath, "utf8"))));
  console.log(`wrote ${chartPath}`);
  process.exit(0);
}

// `--redraw`: only redraw bench/ratios.svg from RESULTS.md, running nothing.
if (filters.includes("--redraw")) {
  writeFileSync(chartPath, renderChart(readSections(existsSync(resultsPath) ? readFileSync(resultsPath, "utf8") : "")));
  console.log(`wrote ${chartPath}`);
  process.exit(0);
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
// The runner runs under the runtime of its benches, so it names the section itself, even for a run whose benches all skipped.
const label = runtimeLabel();
const loadAtStart = loadAverage();
for (const name of files) {
  console.log(`\n=== ${name} (${runtime})`);
  const { code, lines, lastError } = await runBench(`bench/${name}`);
  // A bench reports its rows, or says why it skipped them all (the replicas bench under Bun and Deno).
  let reported = false;
  for (const line of lines) {
    if (line.startsWith("BENCH_JSON ")) {
      const result = JSON.parse(line.slice("BENCH_JSON ".length)) as AreaResult;
      areas.push(result);
      reported = true;
    } else if (line.startsWith("BENCH_SKIP ")) {
      skips.push(JSON.parse(line.slice("BENCH_SKIP ".length)) as Skip);
      reported = true;
    }
  }
  if (code !== 0) failures.push(`${name} exited with code ${code}${lastError ? `: ${clip(lastError, 240)}` : ""}`);
  else if (!reported) failures.push(`${name} printed no BENCH_JSON or BENCH_SKIP line`);
}

const date = new Date().toISOString().replace("T", " ").slice(0, 16) + " UTC";
let data: SectionData = { runtime, label, date, load: { start: loadAtStart, end: loadAverage() }, areas, skips, failures };
// With a file filter, the areas this run did not touch keep their figures from the last run.
const previous = filters.length === 0 || !existsSync(resultsPath)
  ? undefined
  : readSections(readFileSync(resultsPath, "utf8")).find((sec) => sec.runtime === runtime);
if (previous !== undefined) {
  // An area ran when it reported rows or skipped them: either way its previous rows and skips are replaced.
  const ran = [...new Set([...areas.map((area) => area.area), ...skips.map((skip) => skip.area)])];
  const kept = previous.areas.filter((area) => !ran.includes(area.area));
  if (kept.length > 0) {
    data = {
      ...data,
      areas: [...kept, ...areas],
      skips: [...previous.skips.filter((skip) => !ran.includes(skip.area)), ...skips],
      partial: { ran, othersFrom: previous.partial?.othersFrom ?? previous.date, areaDates: areaDates(previous, ran, date) },
    };
  }
}
/** When each area of the new section ran: this run's areas now, the others when the previous section says. */
function areaDates(previous: SectionData, ran: string[], now: string): Record<string, string> {
  const dates: Record<string, string> = {};
  for (const area of previous.areas) dates[area.area] = dateOfArea(previous, area.area);
  for (const area of ran) dates[area] = now;
  return dates;
}

const body = section(data);
writeResults(runtime, body);
console.log(`\nwrote ${resultsPath}`);
writeFileSync(chartPath, renderChart(readSections(readFileSync(resultsPath, "utf8"))));
console.log(`wrote ${chartPath}`);
const missed = areas.flatMap((a) =>
  a.rows.filter((r) => !r.met && !r.target.startsWith("(")).map((r) => `${a.area}: ${r.name} vs ${r.peerName}`)
);
if (missed.length) console.log(`targets missed: ${missed.join("; ")}`);
if (failures.length) {
  console.error(failures.join("\n"));
  process.exit(1);
}
