/**
 * Development's reload on save (docs/live-apps.md#development): while the production gate is off
 * and the app runs under `svc-live dev` (DEV_LOOP_ENV, src/runtime/env.ts), every page (and the error page of a failed load) holds a small script that listens to
 * `?_svc=reload` on its own URL, an event stream whose only data is this process's boot id. When
 * the server restarts (`svc-live dev` runs it under the runtime's watch), the browser's
 * EventSource reconnects, reads a new id and the page reloads, so it shows the saved code. The
 * boot id is one per process: a constant of this module, made when it loads.
 */
import { CLIENT_QUERY_NAME, RELOAD_QUERY_VALUE } from "../../../protocol/mod.ts";
import { repeatUnref } from "../../../runtime/timers.ts";
import { DEV_LOOP_ENV, readEnv } from "../../../runtime/env.ts";

/**
 * Whether this process runs under `svc-live dev`'s loop, whose restarts pages follow. Replicas in
 * development behind a balancer each have their own boot id: without the loop a page would take
 * another replica's id for a restart and reload for ever.
 */
export function inDevLoop(): boolean {
  return readEnv(DEV_LOOP_ENV) === "1";
}

const BOOT_ID = [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, "0")).join("");

/** How long the browser waits before it reconnects, in ms: short, as the server restarts in about that. */
const RETRY_MS = 250;
/** A comment this often keeps the stream from looking idle to proxies and the runtime's server. */
const HEARTBEAT_MS = 15_000;

/** Whether a page URL asks for the reload stream. */
export function reloadAsked(url: string): boolean {
  return url.includes(`${CLIENT_QUERY_NAME}=${RELOAD_QUERY_VALUE}`) &&
    new URL(url).searchParams.get(CLIENT_QUERY_NAME) === RELOAD_QUERY_VALUE;
}

/** The reload stream: the boot id, then a heartbeat comment now and then, until the page goes. */
export function reloadStream(): Response {
  const encoder = new TextEncoder();
  let stop = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`retry: ${RETRY_MS}\ndata: ${BOOT_ID}\n\n`));
      stop = repeatUnref(() => {
        try {
          controller.enqueue(encoder.encode(": alive\n\n"));
        } catch {
          stop();
        }
      }, HEARTBEAT_MS);
    },
    cancel() {
      stop();
    },
  });
  return new Response(body, { headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-store" } });
}

/** The script a development page holds: reload when the reload stream names another boot id. */
export function reloadScript(): string {
  return `<script>(()=>{const s=new EventSource("?${CLIENT_QUERY_NAME}=${RELOAD_QUERY_VALUE}");` +
    `s.onmessage=(e)=>{if(e.data!==${JSON.stringify(BOOT_ID)}){s.close();location.reload()}}})()</script>`;
}
