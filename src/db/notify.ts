/**
 * The one notification channel of a database's svc tables (docs/deployment.md#several-replicas):
 * writes that other replicas must hear of at once (a revoke, a disable, a live session taken over
 * or ended, a frame for a stream held elsewhere) add a pg_notify to their own transaction, and
 * every replica LISTENs. Channels are per database, not per schema, so the schema is part of the
 * name: apps (and test runs) in different schemas of one server do not hear each other.
 */
import { randomId } from "./random-id.ts";

/** SQL for the channel's name, evaluated by the server so that it follows the search_path. */
export const CHANNEL_SQL = "'svc:' || coalesce(current_schema(), '')";

/** This process, so that a replica can tell its own notices from the others'. */
export const PROCESS_ID: string = randomId();
