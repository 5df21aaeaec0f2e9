/**
 * The `svc-live` command line: a table of commands and a dispatcher. bin/svc-live.js calls `main` with the
 * arguments after the program name and exits with the code it returns. Add a command by adding
 * an entry to COMMANDS.
 */
import { parseCommandArgs } from "../runtime/args.ts";
import { fileSystem } from "../runtime/fs.ts";
import { turnServingOff } from "../runtime/no-serve.ts";
import { LiveApp } from "../live/server/app/app.ts";
import { watchBuiltApps } from "../live/server/app/watch.ts";
import { doctor } from "./doctor.ts";
import { desktopAppOf, runDesktop, windowOption } from "./desktop.ts";
import { init, ownPackage, rootOf } from "./init.ts";
import { runChild, watchCommand } from "../runtime/watch-run.ts";

/** Where a command writes; console by default, captured in tests. */
export type Io = { readonly out: (line: string) => void; readonly err: (line: string) => void };

/** A command of the command line: its usage line, a one-line summary, and what runs it. */
export type Command = {
  readonly usage: string;
  readonly summary: string;
  readonly run: (args: readonly string[], io: Io) => Promise<number>;
};

const consoleIo: Io = { out: (line) => console.log(line), err: (line) => console.error(line) };

/** `svc-live init <dir> [--svc <specifier>]`. */
async function initCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseCommandArgs(args, ["svc"]);
  if (!parsed.ok) return usageError(io, parsed.error.message, COMMANDS.init!);
  const { positionals: positional, values: { svc } } = parsed.value;
  if (positional.length !== 1 || svc === "") return usageError(io, "give one directory", COMMANDS.init!);
  const done = await init(fileSystem, positional[0]!, svc === undefined ? {} : { svc });
  if (!done.ok) {
    io.err(`svc-live init: ${done.error.message}`);
    return 1;
  }
  if (done.value.warning !== undefined) io.err(`svc-live init: warning: ${done.value.warning}`);
  io.out(`Created ${done.value.dir}: ${done.value.files.join(", ")}`);
  io.out(`.env holds a new random SVC_AUTH_TOKEN_SECRET; keep it secret.`);
  io.out(`Next: cd ${shellWord(positional[0]!)} && npm install, then npm start (Node), bun run start (Bun) or deno task start (Deno)`);
  return 0;
}

/** `word` as one word of a POSIX shell: as it is when it is plain, else in single quotes. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** `svc-live doctor <app module> [--prefix <PREFIX>]`: imports the module and reports its checks. */
async function doctorCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseCommandArgs(args, ["prefix"]);
  if (!parsed.ok) return usageError(io, parsed.error.message, COMMANDS.doctor!);
  const { positionals: positional, values: { prefix } } = parsed.value;
  if (positional.length !== 1) return usageError(io, "give one app module", COMMANDS.doctor!);
  const path = fileSystem.resolve(positional[0]!);
  let source: string;
  let exports: Record<string, unknown>;
  // Inspect, never serve: a server entry's serve() at import takes no port, and the apps its
  // factory builds are seen as they are built (docs/live-apps.md#serving).
  const built: LiveApp<unknown>[] = [];
  const servingOn = turnServingOff();
  const previous = watchBuiltApps((app) => app instanceof LiveApp && built.push(app));
  try {
    source = await fileSystem.readText(path);
    exports = (await import(new URL(`file://${path}`).href)) as Record<string, unknown>;
  } catch (error) {
    io.err(`svc-live doctor: cannot load ${positional[0]}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    watchBuiltApps(previous);
    servingOn();
  }
  const findings = doctor({ exports, source, built, ...(prefix === undefined ? {} : { prefix }) });
  for (const app of built) app.close();
  for (const finding of findings) io.out(`${finding.level.toUpperCase().padEnd(5)} ${finding.check}: ${finding.message}`);
  return findings.some((finding) => finding.level === "error") ? 1 : 0;
}

/** `svc-live --version`: the installed package's version. */
async function versionCommand(_args: readonly string[], io: Io): Promise<number> {
  io.out((await ownPackage(fileSystem)).version);
  return 0;
}

/** `svc-live desktop <app module> [--browser <path>] [--window auto|browser|native]`: runs the app in a window. */
async function desktopCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseCommandArgs(args, ["browser", "window"]);
  if (!parsed.ok) return usageError(io, parsed.error.message, COMMANDS.desktop!);
  const { positionals: positional, values: { browser, window } } = parsed.value;
  if (positional.length !== 1) return usageError(io, "give one app module", COMMANDS.desktop!);
  const which = windowOption(window);
  if (typeof which === "string" && which.startsWith("--")) return usageError(io, which, COMMANDS.desktop!);
  let exports: Record<string, unknown>;
  try {
    exports = (await import(new URL(`file://${fileSystem.resolve(positional[0]!)}`).href)) as Record<string, unknown>;
  } catch (error) {
    io.err(`svc-live desktop: cannot load ${positional[0]}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const app = desktopAppOf(exports);
  if (typeof app === "string") {
    io.err(`svc-live desktop: ${app}`);
    return 1;
  }
  try {
    await runDesktop(app, {
      ...(browser === undefined ? {} : { browser }),
      ...(which === undefined ? {} : { window: which as "auto" | "browser" | "native" }),
    });
  } catch (error) {
    io.err(`svc-live desktop: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  return 0;
}

/**
 * `svc-live dev <app module>`: runs the module (a server entry, like init's server.ts) under the
 * runtime's own watch, which restarts it on save; open pages reload themselves when it does
 * (docs/live-apps.md#development).
 */
async function devCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseCommandArgs(args, []);
  if (!parsed.ok) return usageError(io, parsed.error.message, COMMANDS.dev!);
  const { positionals: positional } = parsed.value;
  if (positional.length !== 1) return usageError(io, "give one app module", COMMANDS.dev!);
  const command = watchCommand(fileSystem.resolve(positional[0]!), { cwd: fileSystem.resolve("."), packageDir: rootOf(fileSystem) });
  if (typeof command === "string") {
    io.err(`svc-live dev: ${command}`);
    return 1;
  }
  io.out(`svc-live dev: running ${positional[0]}; saving a file it imports restarts it, and open pages reload`);
  return runChild(command);
}

/** The commands, by name; `main` dispatches to them. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  init: { usage: "svc-live init <dir> [--svc <specifier>]", summary: "create a minimal live app in a new directory", run: initCommand },
  doctor: {
    usage: "svc-live doctor <app module> [--prefix <PREFIX>]",
    summary: "check the secret, the production gate and the revocation gate's binding, without serving",
    run: doctorCommand,
  },
  dev: {
    usage: "svc-live dev <app module>",
    summary: "run a server module, restart it on save and reload its open pages",
    run: devCommand,
  },
  desktop: {
    usage: "svc-live desktop <app module> [--browser <path>] [--window auto|browser|native]",
    summary: "run a live app as a desktop application, in a window of its own",
    run: desktopCommand,
  },
  version: { usage: "svc-live --version", summary: "print the version of svc-live", run: versionCommand },
};

function usageError(io: Io, problem: string, command: Command): number {
  io.err(`svc-live: ${problem}\nusage: ${command.usage}`);
  return 2;
}

/** The usage text: every command with its summary. */
export function usage(): string {
  const width = Math.max(...Object.values(COMMANDS).map((c) => c.usage.length));
  return [
    "usage: svc-live <command> [options]",
    "",
    "commands:",
    ...Object.values(COMMANDS).map((c) => `  ${c.usage.padEnd(width)}  ${c.summary}`),
  ].join("\n");
}

/** Runs the command named by args[0]; returns the process exit code. */
export async function main(args: readonly string[], io: Io = consoleIo): Promise<number> {
  const [given, ...rest] = args;
  const name = given === "--version" || given === "-v" ? "version" : given;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    io.out(usage());
    return name === undefined ? 2 : 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) {
    io.err(`svc-live: unknown command ${JSON.stringify(name)}\n\n${usage()}`);
    return 2;
  }
  return command.run(rest, io);
}
