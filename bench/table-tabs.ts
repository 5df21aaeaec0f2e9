/**
 * The tabs of bench/table.bench.ts and of its round processes (bench/table-rounds.ts): a tab of
 * ours or of a whole-page peer on the table page (bench/table-page.ts), the next event each sends
 * (a new quantity in the next row it has not edited), and a run of events with the CPU it took.
 */
import process from "node:process";
import { cookiesOf } from "./live-app.ts";
import { idsOf } from "./page-ids.ts";
import type { UiElement } from "../src/ui/node.ts";
import { initialTable, type TableModel, tableView } from "./table-page.ts";

export const origin = "http://bench.test";
const utf8 = new TextEncoder();

export type Fetch = (req: Request) => Response | Promise<Response>;

/** A tab of ours: what its page load handed it, and the ids of the rows' quantity inputs. */
export type Tab = {
  cookie: string;
  csrf: string;
  handle: string;
  page: string;
  qtyIds: string[];
  seq: number;
  edited: number;
  model: TableModel;
};

/**
 * Opens a tab of an app of `view` (ids differ between the keyed and the unkeyed page), showing
 * `owner`'s rows (bench/table-page.ts initialTable; 0, the table every tab shows, by default).
 */
export async function openTab(
  fetch: Fetch,
  rows: number,
  page: string,
  view: (model: TableModel) => UiElement = tableView,
  owner = 0,
): Promise<Tab> {
  const resp = await fetch(new Request(owner === 0 ? `${origin}/` : `${origin}/?owner=${owner}`));
  const html = await resp.text();
  const meta = (name: string) => new RegExp(`<meta name="${name}" content="([^"]*)">`).exec(html)?.[1] ?? "";
  // The ids the client derives (docs/protocol.md#derived-ids), read from the page's view.
  const qtyIds = idsOf(view(initialTable(rows, owner)), (el) => el.tag === "input" && el.attrs["name"]?.startsWith("qty-") === true);
  if (qtyIds.length !== rows) throw new Error(`expected ${rows} quantity inputs, found ${qtyIds.length}`);
  return {
    cookie: cookiesOf(resp),
    csrf: meta("svc-csrf"),
    handle: meta("svc-session"),
    page,
    qtyIds,
    seq: 0,
    edited: 0,
    model: initialTable(rows, owner),
  };
}

/** The next event of a tab: a new quantity in the next row it has not edited (wrapping round). */
function nextEdit(tab: Tab): { row: number; value: string } {
  const row = tab.edited++ % tab.qtyIds.length;
  return { row, value: String(tab.model.rows[row]!.qty + 1 + Math.floor(tab.edited / tab.qtyIds.length)) };
}

export function oursRequest(tab: Tab): Request {
  const { row, value } = nextEdit(tab);
  const seq = ++tab.seq;
  const id = tab.qtyIds[row]!;
  const body = JSON.stringify({
    sessionId: tab.handle,
    page: tab.page,
    seq,
    msg: "SetQty",
    args: [tab.model.rows[row]!.id, value],
    handlerId: id,
    inputState: { [id]: { value, seq } },
  });
  const headers = {
    Cookie: tab.cookie,
    "X-Svc-Csrf": tab.csrf,
    "Content-Type": "application/json",
    "Content-Length": String(utf8.encode(body).length),
  };
  return new Request(`${origin}/_svc/event`, { method: "POST", body, headers });
}

/** A peer's tab: its cookie and the quantities it typed. */
export type PeerTab = { cookie: string; edited: number; model: TableModel };

export async function openPeerTab(fetch: Fetch, rows: number): Promise<PeerTab> {
  const resp = await fetch(new Request(`${origin}/`));
  await resp.text();
  return { cookie: cookiesOf(resp), edited: 0, model: initialTable(rows) };
}

export function peerRequest(tab: PeerTab, rows: number): Request {
  const row = tab.edited++ % rows;
  const value = String(tab.model.rows[row]!.qty + 1 + Math.floor(tab.edited / rows));
  const body = JSON.stringify({ msg: "SetQty", args: [tab.model.rows[row]!.id, value] });
  return new Request(`${origin}/event`, {
    method: "POST",
    body,
    headers: { Cookie: tab.cookie, "Content-Type": "application/json", "Content-Length": String(body.length) },
  });
}

/**
 * Opens a tab's event stream (`?page=`, as the client does) and reads it to its end, as a browser
 * would; `seqs` collects the seqs of the frames it carries.
 */
export async function openStream(fetch: Fetch, tab: Tab): Promise<{ seqs: number[]; close(): void }> {
  const url = `${origin}/_svc/subscribe?after=0&page=${encodeURIComponent(tab.page)}`;
  const resp = await fetch(new Request(url, { headers: { Cookie: tab.cookie, "X-Svc-Csrf": tab.csrf } }));
  if (resp.status !== 200 || resp.body === null) throw new Error(`subscribe answered ${resp.status}`);
  const reader = resp.body.pipeThrough(new TextDecoderStream()).getReader();
  const seqs: number[] = [];
  let pending = "";
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      pending += value;
      let end: number;
      while ((end = pending.indexOf("\n\n")) >= 0) {
        const frame = pending.slice(0, end);
        pending = pending.slice(end + 2);
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (data !== undefined) seqs.push((JSON.parse(data) as { seq: number }).seq);
      }
    }
  })();
  return { seqs, close: () => void reader.cancel().catch(() => undefined) };
}

/**
 * Opens a tab's event stream (`?page=`, as the client does) and reads its bytes as they come,
 * without decoding them: what a server's socket would take off its hands, and nothing of the
 * browser's own work counted in the server's CPU.
 */
export async function drainStream(fetch: Fetch, tab: Pick<Tab, "cookie" | "csrf" | "page">): Promise<{ close(): void }> {
  const url = `${origin}/_svc/subscribe?after=0&page=${encodeURIComponent(tab.page)}`;
  const resp = await fetch(new Request(url, { headers: { Cookie: tab.cookie, "X-Svc-Csrf": tab.csrf } }));
  if (resp.status !== 200 || resp.body === null) throw new Error(`subscribe answered ${resp.status}`);
  const reader = resp.body.getReader();
  void (async () => {
    for (;;) {
      const { done } = await reader.read().catch(() => ({ done: true }));
      if (done) return;
    }
  })();
  return { close: () => void reader.cancel().catch(() => undefined) };
}

/** CPU (user + system) in µs so far. */
export function cpuMicros(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

/** Runs `count` events made by `make` through `fetch`; returns CPU µs per event and reply bytes per event. */
export async function events(fetch: Fetch, make: () => Request, count: number): Promise<{ cpu: number; bytes: number }> {
  let bytes = 0;
  const start = cpuMicros();
  for (let i = 0; i < count; i++) {
    const resp = await fetch(make());
    if (resp.status !== 200) throw new Error(`event answered ${resp.status}: ${await resp.text()}`);
    bytes += (await resp.arrayBuffer()).byteLength;
  }
  return { cpu: (cpuMicros() - start) / count, bytes: bytes / count };
}
