/**
 * The "reconnecting" state (docs/protocol.md#resend): while a request of this page has been
 * failing for a moment (network errors, 502, 503, 504, timeouts, each sent again), the page's
 * `<html>` carries the class RECONNECTING_CLASS, which an app may style, and a polite live region
 * tells assistive technology. Both are cleared as soon as every failing request is answered. The
 * class sits on `<html>`, outside the app's root, because a render reconciles the root's own
 * attributes with the server's and would take a client-set class away.
 */

/** The class on `<html>` while the page is reconnecting. */
export const RECONNECTING_CLASS = "svc-reconnecting";
/** The `id` of the live region that announces it (created on the first failure, kept empty after). */
export const RECONNECTING_REGION_ID = "svc-reconnecting-status";
/** What the live region says while the page is reconnecting. */
export const RECONNECTING_TEXT = "Reconnecting...";

/** The reconnecting state of one page: which requests are failing, and whether it is shown. */
export class Reconnecting {
  private readonly failing = new Set<object>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** `delayMs`: how long a failure lasts before the state shows. */
  constructor(private readonly doc: Document, private readonly delayMs: number) {}

  /** The request `request` failed and will be sent again: the state shows if it is still failing after the delay. */
  failed(request: object): void {
    this.failing.add(request);
    // The region exists before it speaks: a live region added with its text already in it is not always announced.
    this.region();
    this.timer ??= setTimeout(() => this.show(), this.delayMs);
  }

  /** The request `request` got an answer (or was given up with the page): the state clears once none is failing. */
  answered(request: object): void {
    if (!this.failing.delete(request) || this.failing.size > 0) return;
    clearTimeout(this.timer);
    this.show();
  }

  /** Shows the reconnecting state while a request is failing, and clears it once none is. */
  private show(): void {
    const on = this.failing.size > 0;
    this.timer = undefined;
    this.doc.documentElement.classList.toggle(RECONNECTING_CLASS, on);
    this.region().textContent = on ? RECONNECTING_TEXT : "";
  }

  /** The live region, outside the app's root (the last child of `<body>`), made on first use. */
  private region(): Element {
    const found = this.doc.getElementById(RECONNECTING_REGION_ID);
    if (found !== null) return found;
    const region = this.doc.createElement("div");
    region.id = RECONNECTING_REGION_ID;
    region.setAttribute("aria-live", "polite");
    // Scaled to nothing (no box to see or click), still read: the class on <html> is what an app styles.
    region.setAttribute("style", "position:fixed;scale:0");
    this.doc.body.appendChild(region);
    return region;
  }
}
