/**
 * Derived ids over Chromium's HTML parser (docs/protocol.md#derived-ids): the check of
 * tests/live/derived-ids.property.test.ts, with the markup parsed by the browser, whose parser
 * moves, adds and drops elements as the HTML standard says (happy-dom's does not in every case).
 * Chromium parses each markup as the children of its context element; the parsed nodes come back
 * as plain data, are rebuilt node for node in happy-dom (no parsing), and the client's `fillIds`
 * runs over them.
 */
import { test } from "node:test";
import fc from "fast-check";
import { assignIds } from "../../src/live/ids.ts";
import { fillIds } from "../../client/dom.ts";
import { document } from "../support/dom.ts";
import { agree, type Case, casesOf } from "../support/derived-ids.ts";
import { build, specArb } from "../support/trees.ts";
import { mixedTreeArb } from "../support/mixed-trees.ts";
import { e2eSkipReason, sharedBrowser } from "./support.ts";

const skip = e2eSkipReason();
if (skip !== undefined) console.log(`tests/e2e/derived-ids skipped: ${skip}`);
const browser = sharedBrowser("svc-e2e-ids-", skip);
const seed = Number(process.env["FC_SEED"] ?? Date.now() % 2 ** 31);
console.log(`derived-ids in Chromium: fast-check seed ${seed} (FC_SEED=${seed} to replay)`);

/** A parsed node as plain data. */
type Parsed = { t: number; tag?: string; attrs?: [string, string][]; text?: string; kids?: Parsed[] };

/** Runs in the page: each [context tag, markup] parsed as that element's children, as plain data. */
const PARSE_IN_PAGE = `(items) => {
  const plain = (node) => node.nodeType === 1
    ? { t: 1, tag: node.localName, attrs: Array.from(node.attributes).map((a) => [a.name, a.value]), kids: Array.from(node.childNodes).map(plain) }
    : { t: node.nodeType, text: node.nodeValue ?? "" };
  return items.map(([contextTag, html]) => {
    const context = document.createElement(contextTag);
    context.innerHTML = html;
    return Array.from(context.childNodes).map(plain);
  });
}`;

function rebuild(node: Parsed): Node {
  if (node.t === 3) return document.createTextNode(node.text ?? "");
  if (node.t !== 1) return document.createComment(node.text ?? "");
  const el = document.createElement(node.tag!);
  for (const [name, value] of node.attrs!) el.setAttribute(name, value);
  for (const kid of node.kids!) el.appendChild(rebuild(kid));
  return el;
}

async function check(cases: readonly Case[], moved: boolean): Promise<void> {
  const page = await (await browser()).newPage();
  try {
    // As source text: the test's transpiler would name the functions with a helper the page lacks.
    const items = JSON.stringify(cases.map((c) => [c.contextTag, c.html]));
    const parsed = (await page.evaluate(`(${PARSE_IN_PAGE})(${items})`)) as Parsed[][];
    cases.forEach((c, i) => {
      const nodes = parsed[i]!.map(rebuild);
      fillIds(nodes, c.parentId);
      agree(c, nodes, moved);
    });
  } finally {
    await page.close();
  }
}

test("Chromium: the client derives exactly the server's ids from the page's markup and from every patch's", { skip }, async () => {
  const samples = fc.sample(fc.tuple(specArb, fc.nat()), { seed, numRuns: 300 });
  await check(samples.flatMap(([spec, pick]) => casesOf(assignIds(build(spec)), pick)), false);
});

test("Chromium: with tables, raw HTML and nestings the parser rearranges, an id never names the wrong element", { skip }, async () => {
  const samples = fc.sample(fc.tuple(mixedTreeArb, fc.nat()), { seed, numRuns: 300 });
  await check(samples.flatMap(([view, pick]) => casesOf(assignIds(view), pick)), true);
});
