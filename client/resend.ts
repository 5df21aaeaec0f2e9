/**
 * When and how soon the client sends an event again (docs/protocol.md#resend): a request that got
 * no answer from the app (a network error, a timeout, or a 502, 503 or 504 from the app or a proxy
 * in front of it) is sent again with the same body, so the same `(page, seq)`, which the server
 * applies once whichever copy reaches it first (docs/protocol.md#event-request). The wait grows
 * exponentially up to a cap, with jitter, so that the tabs of a replica that died do not all come
 * back at the same instant.
 */
import { GATE_UNAVAILABLE, retryAfterMs, STATUS_HEADER } from "../src/protocol/mod.ts";

/** The delays of the resend loop (client/host.ts Options, where each has its default). */
export type ResendDelays = {
  /** First wait before a resend, ms; it doubles with each failed attempt. */
  readonly retryMs: number;
  /** The longest wait between two attempts, ms. */
  readonly retryCapMs: number;
  /** An attempt unanswered for this long is abandoned and sent again, ms. */
  readonly timeoutMs: number;
};

/**
 * An answer after which the request is sent again unchanged (docs/protocol.md#resend): the app did
 * not answer, as a proxy says with 502 (no replica took it) or 504 (none answered in time), or it
 * was unavailable (503).
 */
export function resendable(status: number): boolean {
  return status >= 502 && status <= 504;
}

/**
 * The wait before attempt `attempt + 1` (attempt 0 failed first): `retryMs * 2^attempt`, capped at
 * `retryCapMs`, of which a random part up to half is taken off ("equal jitter": never less than
 * half the step, never more than the step). `random` is in [0, 1).
 */
export function backoffMs(attempt: number, options: ResendDelays, random: () => number = Math.random): number {
  const step = Math.min(options.retryCapMs, options.retryMs * 2 ** attempt);
  return step / 2 + (step / 2) * random();
}

/**
 * The wait after a resendable answer: the server's Retry-After for its own 503 (it says when to
 * come back), capped; the backoff for everything else, including a 503 from a draining replica
 * (another replica will answer at once) and a 502 or 504 from a proxy.
 */
export function resendDelayMs(resp: Response | undefined, attempt: number, options: ResendDelays, random?: () => number): number {
  const backoff = backoffMs(attempt, options, random);
  if (resp?.headers.get(STATUS_HEADER) !== GATE_UNAVAILABLE) return backoff;
  const asked = retryAfterMs(resp.headers);
  return asked === undefined ? backoff : Math.min(asked, options.retryCapMs);
}

/**
 * A fetch that gives up after `timeoutMs`: the attempt is aborted (its promise rejects) and counts
 * as a network failure, so it is sent again (an answer that was on its way is then a duplicate the
 * server answers 204). The host's fetch must honour the signal, as the platform's does.
 */
export async function fetchWithin(
  fetch: (url: string, init: RequestInit) => Promise<Response>,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<Response> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    return await fetch(url, { ...init, signal: abort.signal });
  } finally {
    clearTimeout(timer);
  }
}
