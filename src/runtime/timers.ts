/**
 * Timers that never keep the process alive: session subscriptions, heartbeats and sweepers belong
 * to a server that something else (the listening socket) keeps running, and tests must be able to
 * exit while sessions still exist. Each returns its stop function.
 */
type Handle = number | { unref?: () => void };

function release(handle: Handle): void {
  const deno = (globalThis as { Deno?: { unrefTimer?: (id: number) => void } }).Deno;
  if (typeof handle === "number") deno?.unrefTimer?.(handle);
  else handle.unref?.();
}

export function repeatUnref(callback: () => void, ms: number): () => void {
  const handle = setInterval(callback, ms) as unknown as Handle;
  release(handle);
  return () => clearInterval(handle as number);
}

export function onceUnref(callback: () => void, ms: number): () => void {
  const handle = setTimeout(callback, ms) as unknown as Handle;
  release(handle);
  return () => clearTimeout(handle as number);
}
