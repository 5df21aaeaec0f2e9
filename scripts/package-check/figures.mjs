// node figures.mjs <README.md> <measured.json>: the README's figures (install size, import time,
// the guides' size, the browser clients' sizes) are the ones `npm run check:package` measured.
// Each block sits between `<!-- figures:NAME {json} -->` and `<!-- /figures:NAME -->`; the JSON in
// the opening marker holds the figures the block was written from, and the block's text is
// written from them here, never by hand.
//
// When a figure in the README differs from the measured one beyond its tolerance, this rewrites
// the blocks with the measured figures and exits 1, so the run fails and the rewritten README is
// there to commit; within tolerance it leaves the README as it is and exits 0. The tolerances:
// sizes within 1% (the install) or 2 KB (the guides, the dictionaries), bundle sizes within
// 0.1 KB; the import time only beyond a factor of 3 either way, since a shared or loaded machine
// gives figures that vary by more than that between runs.
import { readFileSync, writeFileSync } from "node:fs";

const [readmePath, measuredPath] = process.argv.slice(2);
const measured = JSON.parse(readFileSync(measuredPath, "utf8"));
const readme = readFileSync(readmePath, "utf8");

const kb = (n) => n.toLocaleString("en-US", { maximumFractionDigits: 0 });
const kb1 = (n) => n.toFixed(1).replace(/\.0$/, "");
const mb = (n) => (n / 1000).toFixed(1);

/** Each block: which figures it shows, and its text from them. */
const BLOCKS = {
  client: {
    keys: ["clientBrotliKb", "clientGzipKb", "clientKb"],
    text: (f) => `${kb1(f.clientBrotliKb)} KB with brotli, ${kb1(f.clientGzipKb)} KB with gzip (${kb(f.clientKb)} KB before compression`,
  },
  install: {
    keys: ["installKb", "dictionariesKb", "docsKb", "importMs", "maxInstallKb"],
    text: (f) =>
      `Install size and import cost: svc-live with Hono and \`@hono/node-server\` takes ${mb(f.installKb)} MB\n` +
      `(${kb(f.installKb)} KB, of which the password-strength dictionaries are ${kb(f.dictionariesKb)} KB and the guides and API\n` +
      `reference in docs/ ${kb(f.docsKb)} KB), and importing \`svc-live\` on Node took ${
        kb(f.importMs)
      } ms (the median of 5 fresh processes) when the\n` +
      `figures were last written: a loaded machine gives import times that vary severalfold. \`npm run check:package\`\n` +
      `measures these figures and writes them here; it fails if the install grows past ${kb(f.maxInstallKb)} KB.`,
  },
};

/** Whether a README figure may stand for the measured one. */
function withinTolerance(key, written, now) {
  if (typeof written !== "number") return false;
  if (key === "importMs") return written <= now * 3 && now <= written * 3;
  if (key === "installKb") return Math.abs(written - now) <= now * 0.01;
  if (key === "maxInstallKb") return written === now;
  if (key.startsWith("client")) return Math.abs(written - now) <= 0.1;
  return Math.abs(written - now) <= 2;
}

const MARKER = /<!-- figures:(\w+) (\{.*?\}) -->([\s\S]*?)<!-- \/figures:\1 -->/g;
const stale = [];
const found = new Set();
const next = readme.replace(MARKER, (_all, name, json, _body) => {
  const block = BLOCKS[name];
  if (block === undefined) throw new Error(`README.md: unknown figures block ${name}`);
  found.add(name);
  const written = JSON.parse(json);
  for (const key of block.keys) {
    if (!withinTolerance(key, written[key], measured[key])) stale.push(`${key}: README ${written[key]}, measured ${measured[key]}`);
  }
  const figures = Object.fromEntries(block.keys.map((key) => [key, measured[key]]));
  const inline = !block.text(figures).includes("\n");
  const text = block.text(figures);
  return `<!-- figures:${name} ${JSON.stringify(figures)} -->${inline ? text : `\n${text}\n`}<!-- /figures:${name} -->`;
});
for (const name of Object.keys(BLOCKS)) if (!found.has(name)) stale.push(`README.md has no figures:${name} block`);

if (stale.length > 0) {
  writeFileSync(readmePath, next);
  console.error(`the README's figures differ from the measured ones beyond their tolerance:\n  ${stale.join("\n  ")}`);
  console.error(`README.md now has the measured figures: commit it`);
  process.exit(1);
}
console.log(`ok   the README's figures are within tolerance of the measured ones (${Object.keys(BLOCKS).join(", ")})`);
