/**
 * Who may use a live session, and as whom (docs/auth.md#live-sessions-and-the-gate):
 * the user a session is bound to, taken from a signed-in app's verified token or bound by the app,
 * and the revocation gate that every interaction of a bound session passes.
 *
 * Binding: the first bind and every change of user move an existing session to a new id (the
 * fixation defence); a brand-new session is bound as it is made. Gate: once enabled, a session
 * whose user was revoked after the binding, or disabled, is evicted: it ends, and the reply clears
 * its cookie (and a sliding app's token cookie). The database failing fails closed (503).
 */
import { issuedAtOf } from "../../../auth/claims.ts";
import type { JsonObject } from "../../../json.ts";
import { withRuledCookie } from "../../../server/secure.ts";
import type { SameSite } from "../../../server/sliding.ts";
import { clearSessionCookie } from "./session-cookies.ts";
import type { GateVerdict, RevocationGate } from "./revocation-gate.ts";
import type { SessionRegistry } from "../registry/registry.ts";
import { EVICTED, GATE_UNAVAILABLE } from "../registry/lookup.ts";
import type { LiveSession } from "../session/session.ts";

/** Why the access check refuses a request: the gate could not answer, or it evicted the session (which has ended). */
export type AccessRefusal = typeof GATE_UNAVAILABLE | typeof EVICTED;

/** A user to bind, and when their token (or the bind) was issued, in ms: the gate's issuedAt. */
export type Binding = { readonly userId: string; readonly at: number };

/** The verified token claims a request carries, when the app binds users from a token (withAuthSliding or withAuth). */
type Claims = JsonObject | undefined;

/** How a new session starts: bound to the token's user, or signed out (its token is cleared). */
export type NewSessionAccess = { readonly binding: Binding | undefined; readonly auth: Claims; readonly signOut: boolean };

export type SessionAccessOptions<Model> = {
  readonly sessions: SessionRegistry<Model>;
  readonly now: () => number;
  readonly cookieName: string;
  /** Whether a request came over HTTPS (its session cookie is then __Host- prefixed). */
  readonly secure: (req: Request) => boolean;
  /** Sessions are named by a token, not a cookie (docs/protocol.md#token-sessions): no session cookie to clear. */
  readonly cookieless?: boolean;
};

export class SessionAccess<Model> {
  /** The revocation gate; inert until the app enables it. */
  gate: RevocationGate | undefined;
  /**
   * The token cookie of the session middleware the app binds users from (withAuthSliding or
   * withAuth): its users are bound from the token, and an eviction clears it.
   */
  tokenCookie: { readonly cookie: string; readonly sameSite: SameSite } | undefined;

  constructor(private readonly options: SessionAccessOptions<Model>) {}

  /** Whether any request can be refused or bind a user: not without a gate or a token middleware. */
  get checksAnything(): boolean {
    return this.gate !== undefined || this.tokenCookie !== undefined;
  }

  /** The user a verified token names, and when the token was issued (ms). */
  tokenBinding(auth: Claims): Binding | undefined {
    const sub = auth?.sub;
    const userId = typeof sub === "string" ? sub : typeof sub === "number" && Number.isSafeInteger(sub) ? String(sub) : undefined;
    if (userId === undefined || userId === "") return undefined;
    const issuedAt = auth === undefined ? undefined : issuedAtOf(auth);
    return { userId, at: issuedAt === undefined ? this.options.now() : issuedAt * 1000 };
  }

  /**
   * Binds a session to a user: binding the same user again changes nothing; otherwise an existing
   * session moves to a new id (`rotate`), a brand-new one does not need to.
   */
  bind(session: LiveSession<Model>, binding: Binding, { rotate }: { readonly rotate: boolean }): void {
    if (session.user === binding.userId) return;
    session.bindUser(binding.userId, binding.at);
    if (rotate) this.options.sessions.rotate(session);
  }

  /**
   * Whether a signed-in app's page load names another user than the session's (a sign-in, a
   * sign-out, a lapse): such a load starts a new session, so init sees the new state.
   */
  userChanged(session: LiveSession<Model>, auth: Claims): boolean {
    return this.tokenCookie !== undefined && session.user !== this.tokenBinding(auth)?.userId;
  }

  /**
   * Every interaction with a session passes here: the app's token binds the session, then
   * the revocation gate decides. Undefined lets the request through; a refusal says why not.
   */
  admit(session: LiveSession<Model>, auth: Claims): AccessRefusal | undefined | Promise<AccessRefusal | undefined> {
    // Nothing to check without a gate or a token middleware: no extra step on the events' hot path.
    if (!this.checksAnything) return undefined;
    const binding = this.tokenBinding(auth);
    if (binding) this.bind(session, binding, { rotate: true });
    const gate = this.gate;
    if (gate === undefined) return undefined;
    // In a signed-in app an unbound session is a signed-out visitor; elsewhere binding is the app's job.
    const verdict = gate.check(session, { warnUnbound: this.tokenCookie === undefined });
    // A verdict known now (a cached access row) is answered without an await: events are the hot path.
    return verdict instanceof Promise ? verdict.then((known) => this.outcomeOf(known, session)) : this.outcomeOf(verdict, session);
  }

  /**
   * How a session made for this request starts: a signed-in app binds it to the token's user, unless
   * the gate says that user is revoked or disabled: then it starts signed out. A gate that cannot
   * answer refuses the request.
   */
  async forNewSession(auth: Claims): Promise<NewSessionAccess | typeof GATE_UNAVAILABLE> {
    const binding = this.tokenBinding(auth);
    if (binding === undefined || this.gate === undefined) return { binding, auth, signOut: false };
    const verdict = await this.gate.verdictFor(binding.userId, binding.at);
    if (verdict === "unavailable") return GATE_UNAVAILABLE;
    return verdict === "evict" ? { binding: undefined, auth: undefined, signOut: true } : { binding, auth, signOut: false };
  }

  /** An ended session's reply: its cookie cleared, and the app's token cookie too. */
  signedOut(resp: Response, req: Request): Response {
    if (this.options.cookieless) return this.clearTokenCookie(resp, req);
    return this.clearTokenCookie(clearSessionCookie(resp, this.options.cookieName, this.options.secure(req)), req);
  }

  /** A reply that clears the app's token cookie (the token's user may not sign in), Secure by the rule. */
  clearTokenCookie(resp: Response, req: Request): Response {
    if (this.tokenCookie === undefined) return resp;
    const { cookie, sameSite } = this.tokenCookie;
    const attributes = `Path=/; HttpOnly; SameSite=${sameSite}; Max-Age=0`;
    return withRuledCookie(resp, { name: cookie, value: "", attributes }, { secureContext: this.options.secure(req) });
  }

  /** What a gate verdict comes to: nothing for allow, else the refusal (an evicted session ends). */
  private outcomeOf(verdict: GateVerdict, session: LiveSession<Model>): AccessRefusal | undefined {
    if (verdict === "allow") return undefined;
    if (verdict === "unavailable") return GATE_UNAVAILABLE;
    this.options.sessions.end(session);
    return EVICTED;
  }
}
