/**
 * The local recipe for several replicas (docs/deployment.md#several-replicas): one command starts
 * three replicas of the demo on one Postgres and a round-robin proxy in front of them.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run replicas
 *
 * The replicas listen on PORT+1..PORT+3 (PORT default 8787, the proxy's); open the proxy's address.
 * REPLICAS sets how many, PROXY_MODE=sticky routes each session to one replica. Ctrl-C drains
 * every replica (SIGTERM) and stops. Kill one with `kill -TERM <pid>` (printed at start) and the
 * sessions it held carry on through the others.
 */
import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";
import { type Mode, Proxy } from "./proxy.ts";

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl?.startsWith("postgres")) {
  console.error("Set DATABASE_URL to a Postgres URL: the replicas share their sessions there.");
  process.exit(1);
}
const port = Number(process.env.PORT || 8787);
const count = Number(process.env.REPLICAS || 3);
const mode: Mode = process.env.PROXY_MODE === "sticky" ? "sticky" : "round-robin";
// Every replica must sign with the same secret; a random one for this run when none is set.
const secret = process.env.SVC_AUTH_TOKEN_SECRET || btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
const demo = new URL("../demo/node.ts", import.meta.url).pathname;

const children: ChildProcess[] = [];
for (let i = 1; i <= count; i++) {
  const child = spawn(process.execPath, ["--import", "tsx", demo], {
    env: { ...process.env, PORT: String(port + i), SVC_AUTH_TOKEN_SECRET: secret },
    stdio: ["ignore", "inherit", "inherit"],
  });
  console.log(`replica ${i}: pid ${child.pid}, http://127.0.0.1:${port + i}`);
  children.push(child);
}

const proxy = new Proxy(children.map((_, i) => `http://127.0.0.1:${port + i + 1}`), mode);
console.log(`proxy (${mode}): ${await proxy.listen(port)}`);

let stopping = false;
process.on("SIGINT", () => {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
  void Promise.all(
    children.map((child) => new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(null)))),
  ).then(async () => {
    await proxy.close();
    process.exit(0);
  });
});
