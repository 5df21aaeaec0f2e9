/**
 * What the page shows when the app failed to handle an event (docs/live-apps.md#mistakes-are-loud-in-development).
 * In development the reply carries a report, and the page shows what failed, where in the app's
 * source, the stack and the id of the server's log line, until the user dismisses it. In
 * production the reply carries only the app's notice (which names the log line), shown small at
 * the bottom of the page until clicked. Both sit outside the live root, so no frame touches them.
 */

/** What a development reply to an app error reports. */
export type AppErrorReport = {
  readonly logId: string;
  readonly message: string;
  readonly stack?: string;
  readonly frame?: { readonly file: string; readonly line: number; readonly column: number; readonly text: string };
};

/** The overlay's element id, for styling and for tests. */
export const OVERLAY_ID = "svc-error-overlay";
/** The production notice's element id. */
export const NOTICE_ID = "svc-failure-notice";

/** Whether a reply body's `report` is an app error report. */
export function isReport(value: unknown): value is AppErrorReport {
  const report = value as AppErrorReport | null;
  return typeof report === "object" && report !== null && typeof report.logId === "string" && typeof report.message === "string";
}

const PRE_STYLE = "white-space:pre-wrap;max-height:14rem;overflow:auto;margin:.5rem 0;padding:.5rem;background:#200;color:#fee";

/** Shows the report, in place of the one shown before. Text only: nothing in it is read as markup. */
export function showAppError(doc: Document, report: AppErrorReport): void {
  doc.getElementById(OVERLAY_ID)?.remove();
  const box = doc.createElement("div");
  box.id = OVERLAY_ID;
  box.setAttribute("role", "alertdialog");
  box.setAttribute(
    "style",
    "position:fixed;inset:auto 1rem 1rem;z-index:9999;max-height:80vh;overflow:auto;padding:1rem;background:#300;color:#fdd;font:14px monospace",
  );
  const title = doc.createElement("strong");
  title.textContent = "Application error (development only)";
  const message = doc.createElement("p");
  message.textContent = report.message;
  box.append(title, message);
  if (report.frame !== undefined) {
    box.append(preOf(doc, "svc-code-frame", `${report.frame.file}:${report.frame.line}:${report.frame.column}\n${report.frame.text}`));
  }
  if (report.stack !== undefined) box.append(preOf(doc, "svc-stack", report.stack));
  const where = doc.createElement("p");
  where.textContent = `See the server log line live.update failed id=${report.logId}`;
  const dismiss = doc.createElement("button");
  dismiss.type = "button";
  dismiss.textContent = "Dismiss";
  dismiss.addEventListener("click", () => box.remove());
  box.append(where, dismiss);
  doc.body.append(box);
}

/** Shows a production failure notice, in place of the one shown before; a click on it hides it. */
export function showFailureNotice(doc: Document, notice: string): void {
  doc.getElementById(NOTICE_ID)?.remove();
  const box = doc.createElement("div");
  box.id = NOTICE_ID;
  box.setAttribute("role", "alert");
  box.setAttribute(
    "style",
    "position:fixed;inset:auto 1rem 1rem auto;z-index:9999;max-width:24rem;padding:.5rem .75rem;border-radius:4px;background:#333;color:#fff;font:14px sans-serif;cursor:pointer",
  );
  box.textContent = notice;
  box.addEventListener("click", () => box.remove());
  doc.body.append(box);
}

function preOf(doc: Document, className: string, text: string): HTMLElement {
  const pre = doc.createElement("pre");
  pre.className = className;
  pre.setAttribute("style", PRE_STYLE);
  pre.textContent = text;
  return pre;
}
