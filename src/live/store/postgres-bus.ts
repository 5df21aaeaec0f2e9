/**
 * The bus on Postgres LISTEN/NOTIFY (docs/deployment.md#several-replicas). One channel per
 * schema (src/db/notify.ts); a notice over NOTIFY's 8,000-byte payload limit travels by reference:
 * its text is a row of svc_live_frames and the notice carries "@<id>" (postgres.ts). What it hears
 * is handled in order by the inbox every shared bus uses (inbox.ts), so a session's frames reach
 * its streams in the order they were saved.
 *
 * An access notice from another process is also told to this process's access listeners and its
 * revocation caches (src/auth/access-events.ts), so a revoke through any replica ends the user's
 * sessions on every replica at once, and no cache here keeps the old row.
 *
 * The listening connection re-listens by itself after it drops, but NOTIFY does not replay what
 * was sent meanwhile. So each time it listens again, every revocation cache of the process is
 * emptied (an access notice may have been missed) and the resume listeners catch up from the
 * store (docs/deployment.md#catching-up-after-a-bus-reconnect), after the notices already queued.
 *
 * The driver tries to listen again once, when its connection closes; if the database is down
 * then, that try fails and it gives up. So the bus checks that it still hears: every few seconds
 * it sends itself a ping on the channel, and when a ping has not come back by the next one, it
 * listens again itself (and catches up as above), until a ping comes back.
 */
import { dropAllEverywhere, dropEverywhere } from "../../auth/access-cache.ts";
import { accessChanged } from "../../auth/access-events.ts";
import type { Db } from "../../db/db.ts";
import { CHANNEL_SQL, PROCESS_ID } from "../../db/notify.ts";
import { log } from "../../log.ts";
import { randomId } from "../../db/random-id.ts";
import { repeatUnref } from "../../runtime/timers.ts";
import { type BusListener, type BusMessage, encodeMessage, type LiveBus } from "./bus.ts";
import { BusInbox, BY_REFERENCE } from "./inbox.ts";
import { fitsInline, type PostgresLiveStore } from "./postgres.ts";

/** How often a bus checks that it still hears its channel. */
const PING_EVERY_MS = 5000;
/** Pings are not messages: no message's text starts with this. */
const PING_PREFIX = "ping:";

export class PostgresBus implements LiveBus {
  readonly shared = true;
  private readonly inbox: BusInbox;
  /** How many times LISTEN took effect: the first is the start, each later one a reconnect. */
  private listens = 0;
  private stop: (() => Promise<void>) | undefined;
  private closed = false;
  /** This bus's ping (see the header); another bus's pings start with the same prefix. */
  private readonly ping = `${PING_PREFIX}${randomId()}`;
  /** A ping is out and has not come back. */
  private pingOut = false;
  private stopPinging: (() => void) | undefined;
  /** A check is under way (a ping or a listen may wait on a database that does not answer). */
  private checking = false;

  private constructor(
    private readonly db: Db,
    store: PostgresLiveStore,
    private readonly channel: string,
  ) {
    this.inbox = new BusInbox({
      fetch: (id) => store.framePayload(id),
      heard: (message) => {
        if (message.t === "access" && message.from !== PROCESS_ID) {
          dropEverywhere(message.user);
          accessChanged(message.user);
        }
      },
    });
  }
  /** Listens on the schema's channel; resolves once LISTEN is in place. `pingMs`: how often it checks that it still hears. */
  static async open(db: Db, store: PostgresLiveStore, pingMs = PING_EVERY_MS): Promise<PostgresBus> {
    await store.ensureSchema();
    const channel = await db.query({ sql: `SELECT ${CHANNEL_SQL} AS channel`, args: [] });
    if (!channel.ok) throw channel.error;
    const bus = new PostgresBus(db, store, String(channel.value[0]?.channel));
    await bus.listen();
    bus.stopPinging = repeatUnref(() => void bus.checkHearing(), pingMs);
    return bus;
  }

  private async listen(): Promise<void> {
    const listening = await this.db.listen(this.channel, (payload) => this.receive(payload), () => this.listened());
    if (!listening.ok) throw listening.error;
    this.stop = listening.value;
  }

  /** Sends a ping; when the last one never came back, listens again first (see the header). */
  private async checkHearing(): Promise<void> {
    if (this.closed || this.checking) return;
    // A handle closed under the bus (an app shutting down without closing it) never answers again:
    // the bus stops, rather than trying to listen on it forever.
    if (this.db.closed) return void this.close();
    this.checking = true;
    try {
      if (this.pingOut) {
        log.warn("live.bus heard nothing of its own ping: listening again");
        const stop = this.stop;
        // The new listen first: a notice heard twice in between is harmless, one heard by neither is lost.
        await this.listen();
        // Not awaited: ending a connection cut off by an outage may take its own time.
        void stop?.().catch(() => undefined);
      }
      // Set before it is sent: the ping can come back before the send's own answer does.
      this.pingOut = true;
      const sent = await this.db.query({ sql: "SELECT pg_notify($1, $2)::text AS sent", args: [this.channel, this.ping] });
      // While the database is down nothing can be sent; the next check tries again.
      if (!sent.ok) this.pingOut = false;
    } catch (error) {
      log.error(`live.bus could not listen again (it retries): ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.checking = false;
    }
  }

  async publish(message: BusMessage): Promise<void> {
    const text = encodeMessage(message);
    const sql = fitsInline(text)
      ? `SELECT pg_notify(${CHANNEL_SQL}, $1)::text AS sent`
      : `WITH frame AS (INSERT INTO svc_live_frames (payload, at) VALUES ($1, (extract(epoch FROM clock_timestamp()) * 1000)::bigint) RETURNING id)
         SELECT pg_notify(${CHANNEL_SQL}, '${BY_REFERENCE}' || frame.id)::text AS sent FROM frame`;
    const sent = await this.db.query({ sql, args: [text] });
    if (!sent.ok) throw sent.error;
  }

  subscribe(listener: BusListener): () => void {
    return this.inbox.subscribe(listener);
  }

  /**
   * NOTIFY delivers notices to a listening connection in commit order, and the inbox hands them
   * to its listeners in the order heard: once its own marker, sent now, comes through, every
   * notice committed before it has been delivered.
   */
  async heardUpTo(maxWaitMs: number): Promise<void> {
    if (this.closed) return;
    await this.inbox.hearOwnMarker(async (mark) => {
      const sent = await this.db.query({ sql: "SELECT pg_notify($1, $2)::text AS sent", args: [this.channel, mark] });
      return sent.ok;
    }, maxWaitMs);
  }

  onResume(listener: () => void): () => void {
    return this.inbox.onResume(listener);
  }

  /** LISTEN took effect: at the start, or again after the connection dropped (a resume). */
  private listened(): void {
    if (++this.listens === 1 || this.closed) return;
    log.warn("live.bus listening again after its connection dropped; catching up on what it missed");
    dropAllEverywhere();
    this.inbox.resumed();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.inbox.close();
    this.stopPinging?.();
    await this.stop?.().catch(() => undefined);
    this.stop = undefined;
  }

  private receive(payload: string): void {
    if (payload.startsWith(PING_PREFIX)) {
      if (payload === this.ping) this.pingOut = false;
      return;
    }
    this.inbox.receive(payload);
  }
}
