/**
 * What a live app does differently while the production gate is off, so that mistakes are loud
 * (docs/live-apps.md#mistakes-are-loud-in-development): a handler naming a message the app does
 * not declare is logged once per name, and an app error's reply carries the error's message, its
 * stack, a code frame of the app's source and its log line's id, which the client shows in an
 * overlay (a page load that fails shows the same as a page). In production neither happens: the
 * reply to an app error says only that it failed, and the log line's id.
 */
import { log } from "../../../log.ts";
import { checkingMessages, DeclaredMessages } from "../../../ui/declared-messages.ts";
import { productionGateOn } from "../../../server/production.ts";
import type { RunningDefinition } from "../session/definition.ts";
import { type CodeFrame, codeFrameOf } from "./code-frame.ts";

/**
 * What a development reply to an app error tells the page: the log line to look for, what failed,
 * the error's stack, and where in the app's own source it was thrown when that can be read.
 */
export type AppErrorReport = {
  readonly logId: string;
  readonly message: string;
  readonly stack?: string;
  readonly frame?: CodeFrame;
};

const development = new WeakSet<object>();

/** What of the app's options decides how it runs in development (src/live/server/app/options.ts). */
export type DevelopmentOptions = {
  readonly prefix?: string;
  readonly messages?: readonly string[];
  readonly name?: string;
  readonly title?: string;
};

/**
 * The definition as the app runs it: in development, its view checks handler messages against the
 * messages it declares, and it is marked so that its app errors are reported to the page.
 */
export function forRunning<Model>(definition: RunningDefinition<Model>, options: DevelopmentOptions): RunningDefinition<Model> {
  if (productionGateOn(options.prefix)) return definition;
  // A copy of its own, so that the mark is this app's and not that of another app built from the same definition.
  let running = { ...definition };
  const names = definition.messages === undefined ? undefined : Object.keys(definition.messages);
  if (names !== undefined) {
    const declared = new DeclaredMessages(new Set([...names, ...(options.messages ?? [])]), options.name ?? options.title ?? "the app");
    const view = definition.view;
    running = { ...definition, view: (model) => checkingMessages(declared, () => view(model)) };
  }
  development.add(running);
  return running;
}

/** Whether the app that runs `definition` reports app errors to the page (the production gate was off when it was built). */
export function reportsToPage(definition: object): boolean {
  return development.has(definition);
}

/** A short random id for one log line, to find it from what the page showed. */
function logLineId(): string {
  return [...crypto.getRandomValues(new Uint8Array(6))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Logs a failed update or view (`live.update failed`) under a fresh id, and returns what a page may be told of it. */
export function logAppError(msg: string, error: unknown): AppErrorReport {
  return logFailure({ line: "live.update failed", about: `msg=${JSON.stringify(msg)}`, what: `update("${msg}")` }, error);
}

/** Logs a page load whose `init` or first `view` threw (`live.page failed`), and returns what a page may be told of it. */
export function logPageError(path: string, error: unknown): AppErrorReport {
  return logFailure({ line: "live.page failed", about: `path=${JSON.stringify(path)}`, what: `the page ${path}` }, error);
}

function logFailure(where: { line: string; about: string; what: string }, error: unknown): AppErrorReport {
  const logId = logLineId();
  const stack = error instanceof Error ? error.stack : undefined;
  log.error(`${where.line} id=${logId} ${where.about}: ${stack ?? (error instanceof Error ? error.message : String(error))}`);
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { logId, message: `${where.what} failed: ${message}`, ...(stack === undefined ? {} : { stack }) };
}

/** The report with the code frame of the app's own source where `error` was thrown, when it can be read. */
export async function withCodeFrame(report: AppErrorReport, error: unknown): Promise<AppErrorReport> {
  const frame = await codeFrameOf(error).catch(() => undefined);
  return frame === undefined ? report : { ...report, frame };
}
