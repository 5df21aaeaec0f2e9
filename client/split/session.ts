/**
 * The split client's Session field (docs/protocol.md#the-session-field): a token session is named by
 * a signed token, which the page hands over in the meta `svc-session-token` and the client keeps
 * in memory only. Every request the client makes goes through `fetch` here, which sends the token
 * in X-Svc-Session and takes a new one from a reply's X-Svc-Session (a sign-in rotated the
 * session). `end` clears the field and tells the server (POST /_svc/end); when that request is
 * lost, the session ends at its idle timeout.
 *
 * Without a token (a page of a cookie session) the field stays empty and requests pass unchanged.
 */
import { END_PATH, SESSION_HEADER } from "../../src/protocol/mod.ts";

/** The fetch the client's requests go through (the Host's). */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

export class SessionField {
  /** Set once `end` ran: no request carries a token again, and no reply brings one back. */
  private ended = false;

  constructor(private token: string | undefined) {}

  /** The token the next request carries, or undefined (a cookie session, or an ended one). */
  get value(): string | undefined {
    return this.token;
  }

  /** Whether the page's session is a token session (it had a token at start). */
  get isToken(): boolean {
    return this.token !== undefined || this.ended;
  }

  /** The headers a request carries besides its own: X-Svc-Session while the field holds a token. */
  headers(): Record<string, string> {
    return this.token === undefined ? {} : { [SESSION_HEADER]: this.token };
  }

  /** `inner` with the token sent on every request and a rotated one taken from every reply. */
  wrap(inner: Fetch): Fetch {
    return async (url, init) => {
      if (this.token === undefined) return inner(url, init);
      const resp = await inner(url, { ...init, headers: { ...recordOf(init.headers), ...this.headers() } });
      this.read(resp);
      return resp;
    };
  }

  /** Takes a new token from a reply (docs/protocol.md#the-session-field, rotation). */
  read(resp: Response): void {
    const next = resp.headers.get(SESSION_HEADER);
    if (next && !this.ended) this.token = next;
  }

  /**
   * Clears the field and tells the server the session ended: POST <base>/_svc/end with the token.
   * Resolves to whether the server answered; a lost request leaves the end to the idle timeout.
   */
  async end(inner: Fetch, base: string): Promise<boolean> {
    const token = this.token;
    this.token = undefined;
    this.ended = true;
    if (token === undefined) return false;
    try {
      const resp = await inner(base + END_PATH, { method: "POST", headers: { [SESSION_HEADER]: token }, keepalive: true });
      return resp.ok;
    } catch {
      return false;
    }
  }
}

/** A RequestInit's headers as a plain record (the client passes records; a Headers object is read). */
function recordOf(headers: HeadersInit | undefined): Record<string, string> {
  if (headers === undefined) return {};
  if (Array.isArray(headers)) return Object.fromEntries(headers);
  if (headers instanceof Headers) {
    const out: Record<string, string> = {};
    headers.forEach((value, name) => (out[name] = value));
    return out;
  }
  return { ...(headers as Record<string, string>) };
}
