/**
 * The multi-replica harness: N replicas of the counter app as child processes (replica-main.ts)
 * on one Postgres schema, each on a free port, behind the in-test proxy (proxy.ts). Replicas can
 * be killed (SIGKILL), drained (SIGTERM), paused and resumed (SIGSTOP, SIGCONT) and restarted.
 */
import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";
import postgres from "postgres";
import { POSTGRES_URL } from "./db-targets.ts";
import { type Mode, Proxy } from "../../examples/replicas/proxy.ts";

const MAIN = new URL("./replica-main.ts", import.meta.url).pathname;
const SECRET = "replica-test-secret-replica-test-secret-0123456789";
/** How long a replica may take to start listening. */
const START_LIMIT_MS = 60_000;

export type Replica = { child: ChildProcess; url: string; port: number; output: string[] };

/** What a replica process runs: its entry file and the line that says on which port it listens. */
export type ReplicaMain = { readonly path: string; readonly listening: RegExp };

/** The counter app (replica-main.ts). */
export const COUNTER_MAIN: ReplicaMain = { path: MAIN, listening: /listening (\d+)/ };
/** The demo (examples/demo/node.ts), as `npm start` runs it. */
export const DEMO_MAIN: ReplicaMain = {
  path: new URL("../../examples/demo/node.ts", import.meta.url).pathname,
  listening: /listening on http:\/\/localhost:(\d+)/,
};

export class Cluster {
  readonly replicas: Replica[] = [];
  proxy!: Proxy;
  proxyUrl = "";
  private admin: ReturnType<typeof postgres> | undefined;
  readonly schema = `svc_replicas_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;

  get databaseUrl(): string {
    const url = POSTGRES_URL ?? "";
    // The application name tells this cluster's backends apart in pg_stat_activity (the bench).
    return `${url}${url.includes("?") ? "&" : "?"}search_path=${this.schema}&application_name=${this.schema}`;
  }

  static async start(
    count: number,
    mode: Mode = "round-robin",
    env: Record<string, string> = {},
    main: ReplicaMain = COUNTER_MAIN,
  ): Promise<Cluster> {
    const cluster = new Cluster();
    cluster.main = main;
    cluster.admin = postgres(POSTGRES_URL ?? "", { onnotice: () => {}, max: 2 });
    await cluster.admin.unsafe(`CREATE SCHEMA ${cluster.schema}`);
    cluster.env = env;
    // A replica that fails to start must not leave the others running: their processes would
    // keep the test file alive after its hooks failed, until CI's own limit.
    const spawned = await Promise.allSettled(Array.from({ length: count }, () => cluster.spawn()));
    const started = spawned.flatMap((outcome) => outcome.status === "fulfilled" ? [outcome.value] : []);
    cluster.replicas.push(...started);
    const failed = spawned.find((outcome) => outcome.status === "rejected");
    if (failed !== undefined) {
      await cluster.stop();
      throw failed.reason;
    }
    cluster.proxy = new Proxy(started.map((r) => r.url), mode);
    cluster.proxyUrl = await cluster.proxy.listen();
    return cluster;
  }

  private env: Record<string, string> = {};
  private main: ReplicaMain = COUNTER_MAIN;

  /** Starts one replica process; resolves once it listens. */
  spawn(): Promise<Replica> {
    const child = spawn(process.execPath, ["--import", "tsx", this.main.path], {
      // Every replica signs and checks CSRF tokens with the same secret.
      env: { ...process.env, SVC_AUTH_TOKEN_SECRET: SECRET, ...this.env, DATABASE_URL: this.databaseUrl, PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output: string[] = [];
    return new Promise((resolve, reject) => {
      // Generous: a loaded machine compiles the app's TypeScript slowly. A replica that missed it
      // is killed, so a failed start leaves no process behind.
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`replica did not start within ${START_LIMIT_MS} ms:\n${output.join("")}`));
      }, START_LIMIT_MS);
      child.stderr!.on("data", (chunk: Buffer) => {
        output.push(chunk.toString());
        for (const line of chunk.toString().split("\n")) if (line.startsWith("[ERROR]")) this.errors.push(line);
      });
      child.stdout!.on("data", (chunk: Buffer) => {
        const text = chunk.toString();
        output.push(text);
        const port = this.main.listening.exec(text)?.[1];
        if (port !== undefined) {
          clearTimeout(timer);
          resolve({ child, url: `http://127.0.0.1:${port}`, port: Number(port), output });
        }
      });
      child.on("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`replica exited with ${code}:\n${output.join("")}`));
      });
    });
  }

  /** Replaces replica `index` with a new process (same slot in the proxy). */
  async restart(index: number): Promise<Replica> {
    const fresh = await this.spawn();
    this.replicas[index] = fresh;
    this.proxy.targets[index] = fresh.url;
    this.proxy.include(index);
    return fresh;
  }

  kill(index: number, signal: NodeJS.Signals): void {
    this.replicas[index]!.child.kill(signal);
  }

  /** Resolves when replica `index` has exited. */
  exited(index: number): Promise<number | null> {
    const child = this.replicas[index]!.child;
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
    return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  }

  /** The errors the replicas logged (every replica this cluster started, restarted ones too). */
  readonly errors: string[] = [];

  async stop(): Promise<void> {
    for (const line of this.errors) console.log(`# replica error: ${line}`);
    await this.proxy?.close();
    for (const replica of this.replicas) {
      if (replica.child.exitCode === null && replica.child.signalCode === null) {
        replica.child.kill("SIGCONT");
        replica.child.kill("SIGKILL");
      }
    }
    await Promise.all(this.replicas.map((_, i) => this.exited(i).catch(() => null)));
    await this.admin?.unsafe(`DROP SCHEMA IF EXISTS ${this.schema} CASCADE`);
    await this.admin?.end({ timeout: 5 });
  }
}
