/**
 * Pushed eviction (docs/deployment.md#several-replicas, docs/auth.md): when a user's access
 * changes (revokeUser, disableUser, enableUser, through this process or, on Postgres, any
 * replica), every session of that user on this replica is checked against the revocation gate at
 * once, and the evicted ones end now: their streams get the session-lost signal and close, and
 * their next event gets 404 session-lost. So does a stream held here for a session another
 * replica serves. Without this, a revoked tab stayed live until it next sent something.
 */
import { onAccessChange } from "../../../auth/access-events.ts";
import { log } from "../../../log.ts";
import type { RevocationGate } from "./revocation-gate.ts";
import type { SessionRegistry } from "../registry/registry.ts";

/** Listens for access changes; returns the function that stops listening. */
export function listenForEvictions<Model>(gate: RevocationGate, registry: SessionRegistry<Model>): () => void {
  return onAccessChange((user) => {
    void evictUser(gate, registry, user).catch((error: unknown) => {
      log.error(`live.evict failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
}

/**
 * Checks every user of a session or stream held here against the gate, from the database: after
 * the bus's connection dropped, an access change may have gone unheard
 * (docs/deployment.md#catching-up-after-a-bus-reconnect). The revocation caches were emptied first.
 */
export async function recheckEveryone<Model>(gate: RevocationGate, registry: SessionRegistry<Model>): Promise<void> {
  const users = new Set<string>(registry.streamedUsers());
  for (const session of registry.all()) if (session.user !== undefined && session.isLive) users.add(session.user);
  for (const user of users) {
    await evictUser(gate, registry, user).catch((error: unknown) => {
      log.error(`live.evict failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  }
}

async function evictUser<Model>(gate: RevocationGate, registry: SessionRegistry<Model>, user: string): Promise<void> {
  for (const session of [...registry.all()]) {
    if (session.user !== user || !session.isLive) continue;
    // The gate decides, so a session bound after a revoke stays (docs/auth.md).
    const verdict = await gate.verdictFor(user, session.boundAt);
    if (verdict === "evict" && session.isLive) registry.end(session);
  }
  // Streams open here for sessions another replica holds (none in one process).
  for (const stream of registry.streamsOf(user)) {
    if ((await gate.verdictFor(user, stream.boundAt)) === "evict") await stream.end();
  }
}
