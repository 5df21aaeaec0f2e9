/**
 * Development's check of handler messages against the messages an app declares
 * (docs/live-apps.md#mistakes-are-loud-in-development): while a view of such an app builds its
 * elements, each handler's message is looked up in the declared names, and a name that is not
 * there is logged once. The live layer turns it on only while the production gate is off.
 */
import { log } from "../log.ts";

/** The names an app declares, and the undeclared ones already reported. */
export class DeclaredMessages {
  private readonly warned = new Set<string>();

  constructor(private readonly names: ReadonlySet<string>, private readonly app: string) {}

  /** Logs `msg` once when the app does not declare it. */
  check(msg: string): void {
    if (this.names.has(msg) || this.warned.has(msg)) return;
    this.warned.add(msg);
    log.warn(
      `live.message ${JSON.stringify(msg)} is named by a handler in ${this.app}'s view but not declared in its messages ` +
        `(${
          [...this.names].map((n) => JSON.stringify(n)).join(", ")
        }): a misspelling? Its events will reach update, which may not handle it`,
    );
  }
}

let current: DeclaredMessages | undefined;

/** Runs `build` (a view) with its handlers checked against `declared`. */
export function checkingMessages<T>(declared: DeclaredMessages, build: () => T): T {
  const outer = current;
  current = declared;
  try {
    return build();
  } finally {
    current = outer;
  }
}

/** Called for each handler message an element is built with: checked when a view is being checked. */
export function noteHandlerMessage(msg: string): void {
  current?.check(msg);
}
