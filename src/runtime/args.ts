/**
 * Command-line arguments, parsed by node:util's `parseArgs` (Node, Bun and Deno all serve it),
 * strict: an option the command does not declare, or one missing its value, is an error.
 */
import { parseArgs } from "node:util";
import { err, ok, type Result } from "../result.ts";

/** The string options a command takes, by long name (`--name value` or `--name=value`). */
export type StringOptions = readonly string[];

export type ParsedArgs = {
  readonly positionals: readonly string[];
  /** Each given option's value; an option given twice keeps the last. */
  readonly values: Readonly<Record<string, string | undefined>>;
};

/** Parses `args` against the command's string options; Err (invalid_argument) names what is wrong. */
export function parseCommandArgs(args: readonly string[], options: StringOptions): Result<ParsedArgs> {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: Object.fromEntries(options.map((name) => [name, { type: "string" as const }])),
      allowPositionals: true,
      strict: true,
    });
    return ok({ positionals, values: values as Record<string, string | undefined> });
  } catch (error) {
    return err("invalid_argument", problemOf(error));
  }
}

/** parseArgs' message without its advice to use `--` (our commands take no dash-led positionals). */
function problemOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) return `unknown option ${unknown[1]}`;
  return message.split(/\.\s/)[0]!.replace(/\.$/, "");
}
