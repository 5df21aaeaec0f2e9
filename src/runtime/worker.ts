/**
 * Background threads for CPU-heavy work (bcrypt), behind one small interface. Node and Deno use
 * worker_threads; Bun and other Web hosts use the standard Worker. Idle workers must not
 * keep a process alive, so a worker is referenced only while it has work.
 */
import { runtimeName } from "./detect.ts";

export interface ThreadWorker {
  post(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  onCrash(listener: (error: unknown) => void): void;
  /** Whether the worker holds the process open (it should only while a job is in flight). */
  hold(busy: boolean): void;
  /** False where an idle worker still keeps the process alive (Deno): the owner must stop it. */
  readonly canRelease: boolean;
  terminate(): void;
}

type WebWorkerWithRef = Worker & { ref?: () => void; unref?: () => void };

function webWorker(url: URL): ThreadWorker {
  const worker = new Worker(url, { type: "module" }) as WebWorkerWithRef;
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (listener) => worker.addEventListener("message", (event) => listener((event as MessageEvent).data)),
    onCrash: (listener) =>
      worker.addEventListener("error", (event) => {
        event.preventDefault();
        listener((event as ErrorEvent).error ?? (event as ErrorEvent).message);
      }),
    hold: (busy) => (busy ? worker.ref?.() : worker.unref?.()),
    canRelease: typeof worker.unref === "function",
    terminate: () => worker.terminate(),
  };
}

/**
 * Node (before native type stripping) runs TypeScript sources through the tsx loader, but a
 * worker thread does not inherit the loader; this boot script registers it before the import.
 */
function typeScriptBoot(url: URL): string {
  const loader = import.meta.resolve("tsx/esm/api");
  return `import(${JSON.stringify(loader)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); })`;
}

async function nodeWorker(url: URL): Promise<ThreadWorker> {
  const { Worker: NodeWorker } = await import("node:worker_threads");
  const worker = runtimeName === "node" && url.pathname.endsWith(".ts")
    ? new NodeWorker(typeScriptBoot(url), { eval: true })
    : new NodeWorker(url);
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (listener) => worker.on("message", listener),
    onCrash: (listener) => {
      worker.on("error", listener);
      worker.on("exit", (code) => listener(new Error(`worker exited with code ${code}`)));
    },
    hold: (busy) => (busy ? worker.ref() : worker.unref()),
    canRelease: true,
    terminate: () => void worker.terminate(),
  };
}

/**
 * Deno also gets worker_threads (its Node layer runs them as its own workers): a Deno Web Worker
 * cannot be unreferenced, so an idle one had to be stopped after a short delay, and the next hash
 * then paid for a new worker's start and a cold JIT (a clearly slower bcrypt against native in
 * bench/auth.bench.ts); a worker_threads worker can be unreferenced.
 */
const useWorkerThreads = runtimeName === "node" || runtimeName === "deno";

export function spawnWorker(url: URL): Promise<ThreadWorker> {
  return useWorkerThreads ? nodeWorker(url) : Promise.resolve(webWorker(url));
}

/** Worker side: answers each message with the handler's result. */
export async function serveWorker(handler: (message: unknown) => unknown): Promise<void> {
  if (useWorkerThreads) {
    const { parentPort } = await import("node:worker_threads");
    if (parentPort) {
      parentPort.on("message", (message) => parentPort.postMessage(handler(message)));
      return;
    }
  }
  const scope = globalThis as unknown as { onmessage: unknown; postMessage(message: unknown): void };
  scope.onmessage = (event: MessageEvent) => scope.postMessage(handler(event.data));
}
