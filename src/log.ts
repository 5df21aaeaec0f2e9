/**
 * The server log. Lines go to the console unless the application installs its own sink
 * (a structured logger, or a test that captures them).
 */
export type LogLevel = "WARN" | "ERROR" | "INFO";
/** Where the library's log lines go (`setLogSink`). */
export type LogSink = (level: LogLevel, line: string) => void;

const consoleSink: LogSink = (level, line) => {
  const text = `[${level}] ${line}`;
  if (level === "ERROR") console.error(text);
  else if (level === "WARN") console.warn(text);
  else console.info(text);
};

let sink: LogSink = consoleSink;

/**
 * Replaces the log sink, where the library's warnings and errors go (the console by default);
 * returns the previous one so a caller can restore it. `undefined` restores the console.
 *
 * @example
 * ```ts
 * import { setLogSink } from "svc-live";
 *
 * // One JSON line per log entry, for a log collector.
 * setLogSink((level, line) => console.log(JSON.stringify({ level, line, at: new Date().toISOString() })));
 * ```
 */
export function setLogSink(next: LogSink | undefined): LogSink {
  const previous = sink;
  sink = next ?? consoleSink;
  return previous;
}

export const log = {
  warn: (line: string) => sink("WARN", line),
  error: (line: string) => sink("ERROR", line),
  info: (line: string) => sink("INFO", line),
};
