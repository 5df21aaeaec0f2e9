// node start-app.mjs <app dir> <Node|Bun|Deno> <command...>: starts the app with PORT set to a free
// port, waits for it to answer GET / with its page, then stops it. Fails if it never answers or if
// another runtime than the one named serves it (the app logs the runtime it runs on).
import { spawn } from "node:child_process";
import { createServer } from "node:net";

const [dir, runtime, ...command] = process.argv.slice(2);
const port = await new Promise((resolve) => {
  const probe = createServer().listen(0, "127.0.0.1", () => {
    const { port } = probe.address();
    probe.close(() => resolve(port));
  });
});
const child = spawn(command[0], command.slice(1), {
  cwd: dir,
  env: { ...process.env, PORT: String(port) },
  stdio: ["ignore", "pipe", "pipe"],
  detached: true,
});
let output = "";
child.stdout.on("data", (chunk) => (output += chunk));
child.stderr.on("data", (chunk) => (output += chunk));
const stop = () => {
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    // already gone
  }
};

const deadline = Date.now() + 60_000;
let served;
while (Date.now() < deadline && child.exitCode === null) {
  try {
    const resp = await fetch(`http://127.0.0.1:${port}/`);
    served = { status: resp.status, html: await resp.text() };
    break;
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
stop();
const label = command.join(" ").replace(/^.*\/(bun|deno)\b/, "$1");
await new Promise((resolve) => setTimeout(resolve, 100));
if (!output.includes(` on ${runtime}: http://localhost:${port}`)) {
  console.error(`${label}: the app did not say it runs on ${runtime} at port ${port}\n${output}`);
  process.exit(1);
}
if (served === undefined || served.status !== 200 || !/<output[^>]*id="count"[^>]*>0<\/output>/.test(served.html)) {
  console.error(`${label}: the app did not serve its page on PORT=${port} (${served ? served.status : "no answer"})\n${output}`);
  process.exit(1);
}
console.log(`ok   ${label}: ${runtime} serves the app's page on PORT=${port}`);
