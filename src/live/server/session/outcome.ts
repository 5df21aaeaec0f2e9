/**
 * What one event entry of a session came to (src/live/server/session/session.ts), which the event
 * route turns into its Response (src/live/server/http/event-route.ts).
 */
import type { Frame } from "../streams/sse-wire.ts";
import type { AppErrorReport } from "./development.ts";
import type { StepOutcome } from "./step.ts";

/**
 * What came of one event entry (docs/protocol.md#event-reply, #errors-and-statuses): the step's own
 * answers as they are (src/live/server/session/step.ts), the frame of an applied entry, and what
 * only the session knows: that it had ended, or that another replica owns it now. The event route
 * turns it into a Response, once.
 */
export type EventOutcome =
  /** Applied: the frame is the reply. `endsSession`: the app's command ended the session with it (Live.endSession). */
  | { readonly kind: "frame"; readonly frame: Frame; readonly endsSession: boolean }
  /** An entry this page already sent: processed once, not again. `outSeq`: how far the session is. */
  | { readonly kind: "duplicate"; readonly outSeq: number }
  /** The step refused the entry. */
  | { readonly kind: Exclude<StepOutcome<unknown>["kind"], "applied" | "duplicate" | "app_error"> }
  /**
   * The app's code threw: nothing of the entry was kept. `logId`: its log line's id. `report`: what
   * the page is told of it in development (docs/live-apps.md#mistakes-are-loud-in-development),
   * undefined in production.
   */
  | { readonly kind: "app_error"; readonly logId: string; readonly report: AppErrorReport | undefined }
  /** The session had ended before the entry. */
  | { readonly kind: "ended" }
  /** Another replica owns the session now: nothing was kept; the caller takes it over and retries. */
  | { readonly kind: "moved" };
