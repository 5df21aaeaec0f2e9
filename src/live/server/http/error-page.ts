/**
 * What a page load answers when the app's `init` or first `view` threw (docs/live-apps.md#errors-an-app-sees):
 * 500, as HTML. In development (the production gate off when the app was built) the page shows
 * the error's message, the code frame of the app's own source and the stack, and the log line's
 * id; in production only the app's failure notice (LiveAppOptions.failureNotice), which holds the
 * log line's id and nothing of the error.
 */
import { escapeText } from "../../escape.ts";
import type { AppErrorReport } from "../session/development.ts";
import { inDevLoop, reloadScript } from "./dev-reload.ts";

/** What `LiveAppOptions.failureNotice` is given: the failure's log line id and the request that met it. */
export type FailureNoticeInput = {
  /** The id of the server's log line for the failure, for the user to quote to support. */
  readonly logId: string;
  /** The request that met the failure (its `Accept-Language`, to translate the notice). */
  readonly request: Request;
};

/** The element id of the page's notice or report, for styling and for tests. */
export const FAILED_PAGE_ID = "svc-failed-page";

const PRE = "white-space:pre-wrap;overflow-x:auto;padding:.75rem;background:#1e1e1e;color:#eee;font:13px/1.4 monospace";

/** The development page: what failed, where in the app's source, the stack and the log line's id. */
export function developmentErrorPage(report: AppErrorReport): Response {
  const frame = report.frame === undefined ? "" : `<h2>${escapeText(frameTitle(report.frame))}</h2>` +
    `<pre id="svc-code-frame" style="${PRE}">${escapeText(report.frame.text)}</pre>`;
  const stack = report.stack === undefined ? "" : `<h2>Stack</h2><pre id="svc-stack" style="${PRE}">${escapeText(report.stack)}</pre>`;
  return htmlPage(
    "Application error",
    // Under svc-live dev it reloads when the server restarts, so a fix saved shows without a manual reload.
    inDevLoop() ? reloadScript() : "",
    `<main id="${FAILED_PAGE_ID}" style="font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem">` +
      `<p style="color:#900;font-weight:bold">Application error (development only)</p>` +
      `<h1 id="svc-error-message" style="font-size:1.3rem">${escapeText(report.message)}</h1>` +
      frame + stack +
      `<p>See the server log line <code>live.page failed id=${escapeText(report.logId)}</code>.</p></main>`,
  );
}

/** The production page: the app's notice, nothing of the error. */
export function productionErrorPage(notice: string): Response {
  return htmlPage(
    "Error",
    "",
    `<main id="${FAILED_PAGE_ID}" role="alert" style="font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem">` +
      `<p>${escapeText(notice)}</p></main>`,
  );
}

function frameTitle(frame: NonNullable<AppErrorReport["frame"]>): string {
  return `${frame.file}:${frame.line}:${frame.column}`;
}

function htmlPage(title: string, head: string, body: string): Response {
  const html = `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeText(title)}</title>${head}</head><body>${body}</body></html>`;
  return new Response(html, { status: 500, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}
