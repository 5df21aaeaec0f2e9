/**
 * Development's overlay for an app error (docs/live-apps.md#mistakes-are-loud-in-development): when
 * the reply to an event carries a report (the server sends one only while its production gate is
 * off), the page shows what failed and the id of the server's log line, until the user dismisses
 * it. It sits outside the live root, so no frame touches it.
 */

/** What a development reply to an app error reports. */
export type AppErrorReport = { readonly logId: string; readonly message: string };

/** The overlay's element id, for styling and for tests. */
export const OVERLAY_ID = "svc-error-overlay";

/** Whether a reply body's `report` is an app error report. */
export function isReport(value: unknown): value is AppErrorReport {
  const report = value as AppErrorReport | null;
  return typeof report === "object" && report !== null && typeof report.logId === "string" && typeof report.message === "string";
}

/** Shows the report, in place of the one shown before. Text only: nothing in it is read as markup. */
export function showAppError(doc: Document, report: AppErrorReport): void {
  doc.getElementById(OVERLAY_ID)?.remove();
  const box = doc.createElement("div");
  box.id = OVERLAY_ID;
  box.setAttribute("role", "alertdialog");
  box.setAttribute("style", "position:fixed;inset:auto 1rem 1rem;z-index:9999;padding:1rem;background:#300;color:#fdd;font:14px monospace");
  const title = doc.createElement("strong");
  title.textContent = "Application error (development only)";
  const message = doc.createElement("p");
  message.textContent = report.message;
  const where = doc.createElement("p");
  where.textContent = `See the server log line live.update failed id=${report.logId}`;
  const dismiss = doc.createElement("button");
  dismiss.type = "button";
  dismiss.textContent = "Dismiss";
  dismiss.addEventListener("click", () => box.remove());
  box.append(title, message, where, dismiss);
  doc.body.append(box);
}
