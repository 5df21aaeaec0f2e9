/**
 * The signed-token session (docs/auth.md#choosing-a-session-type, docs/protocol.md#token-sessions):
 * a live app built with `{ session: "token" }` names each session by a token the client holds in
 * memory and sends in the X-Svc-Session header on every request and stream, never in a cookie.
 *
 * The token is an HS256 JWT made by `Auth.signToken` and checked by `Auth.verifyToken`, under a key
 * derived from the app's secret for this use alone (so a session token is never a valid token of
 * the app's own sign-in, nor the other way round). It carries the session's secret id (`sid`) and
 * the app it belongs to (`aud`), so the token of another app sharing the secret is refused. The
 * token only names the session: its state lives in the app's session store, and the session ends
 * when the client says so (POST /_svc/end), at its idle timeout, or when the gate evicts it.
 *
 * Every token that does not name a session this app holds (forged, cut short, too long, expired,
 * another app's, or its session ended) is answered like an unknown cookie: the one 404
 * session-lost, and nothing changes.
 */
import { Secret } from "../../../auth/secret.ts";
import { signToken, verifyToken } from "../../../auth/token.ts";
import { SvcError } from "../../../errors.ts";
import { SESSION_HEADER } from "../../../protocol/mod.ts";
import { encodeBytes } from "../../../runtime/base64url.ts";

/**
 * Longest X-Svc-Session value read. The tokens this module makes are about 250 characters; a
 * longer header is refused before anything is decoded.
 */
export const MAX_SESSION_TOKEN_LENGTH = 1024;

/** How many verified tokens are remembered (the most recent ones). */
const VERIFIED_TOKENS_KEPT = 4096;

/** Default lifetime of a session token; one past half of it is replaced on the next reply. */
export const DEFAULT_SESSION_TOKEN_SECONDS = 24 * 60 * 60;

/** What a request's X-Svc-Session header says. */
export type TokenRead =
  /** No header at all (a browser's page load). */
  | { readonly kind: "none" }
  /** A header that is not a valid token of this app (the same answer whatever the reason). */
  | { readonly kind: "bad" }
  /** The session id the token names, and whether the token is past half its lifetime. */
  | { readonly kind: "session"; readonly id: string; readonly stale: boolean };

const NONE: TokenRead = { kind: "none" };
const BAD: TokenRead = { kind: "bad" };

export type SessionTokenOptions = {
  /** Key material derived from the app's secret for session tokens alone (CsrfTokens.derivedKey). */
  readonly key: Uint8Array;
  /** The app's name (its session cookie's name would be svc_<name>_sid): the token's audience. */
  readonly app: string;
  /** Lifetime of a token in whole seconds. */
  readonly lifetimeSeconds: number;
  /** The app's clock, in ms. */
  readonly now: () => number;
};

/** Issues and reads the session tokens of one live app. */
export class SessionTokens {
  private readonly secret: Secret;
  private readonly audience: string;
  /** What each request's header said: a request is read by its route and again by its reply. */
  private readonly reads = new WeakMap<Request, TokenRead>();
  /**
   * Tokens verified already, with what they name and when they expire: a client sends the same
   * token with every event, and verifying it again (decoding, the MAC, the JSON) showed in a token
   * event's rate (bench/token-session.bench.ts). Only a string equal to one that
   * verified is taken from here, and its expiry is checked against the clock each time; the
   * session it names is still looked up, so an ended session's token is refused all the same.
   */
  private readonly verified = new Map<string, { readonly id: string; readonly iat: number; readonly exp: number }>();

  constructor(private readonly options: SessionTokenOptions) {
    if (!Number.isSafeInteger(options.lifetimeSeconds) || options.lifetimeSeconds < 60) {
      throw new TypeError(
        `Live.app: sessionTokenSeconds must be a whole number of seconds, at least 60, not ${String(options.lifetimeSeconds)}`,
      );
    }
    this.secret = Secret.fromString(encodeBytes(options.key));
    this.audience = `svc-live:${options.app}`;
  }

  /** A token naming the session with secret id `id`. */
  issue(id: string): string {
    const token = signToken(this.secret, { sid: id, aud: this.audience }, this.options.lifetimeSeconds, { now: this.seconds() });
    // The key is derived (32 bytes) and the claims are strings: signing cannot fail.
    if (!token.ok) throw new SvcError(token.error.code, token.error.message);
    return token.value;
  }

  /** What the request's header names. */
  read(req: Request): TokenRead {
    const known = this.reads.get(req);
    if (known !== undefined) return known;
    const read = this.verify(req);
    this.reads.set(req, read);
    return read;
  }

  private verify(req: Request): TokenRead {
    const header = req.headers.get(SESSION_HEADER);
    if (header === null) return NONE;
    if (header.length === 0 || header.length > MAX_SESSION_TOKEN_LENGTH) return BAD;
    const now = this.seconds();
    const known = this.verified.get(header);
    if (known !== undefined) {
      if (now < known.exp) return this.named(known.id, known.iat, now);
      this.verified.delete(header);
      return BAD;
    }
    const verified = verifyToken(this.secret, header, { now });
    if (!verified.ok) return BAD;
    const { sid, aud, iat, exp } = verified.value;
    if (aud !== this.audience || typeof sid !== "string" || sid === "" || typeof iat !== "number" || typeof exp !== "number") return BAD;
    if (this.verified.size >= VERIFIED_TOKENS_KEPT) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(header, { id: sid, iat, exp });
    return this.named(sid, iat, now);
  }

  private named(id: string, iat: number, now: number): TokenRead {
    return { kind: "session", id, stale: now - iat >= this.options.lifetimeSeconds / 2 };
  }

  /** The session id a request's token names; undefined for none or a bad one (both are session-lost). */
  idOf(req: Request): string | undefined {
    const read = this.read(req);
    return read.kind === "session" ? read.id : undefined;
  }

  /** Whether the request's token is valid and past half its lifetime (the reply then carries a fresh one). */
  isStale(req: Request): boolean {
    const read = this.read(req);
    return read.kind === "session" && read.stale;
  }

  /**
   * Hands the client its session's token in a reply: after a rotation (a new id), or when the token
   * it sent is past half its lifetime. The client replaces its Session field with it.
   */
  tell(resp: Response, id: string): Response {
    resp.headers.set(SESSION_HEADER, this.issue(id));
    return resp;
  }

  private seconds(): number {
    return this.options.now() / 1000;
  }
}
