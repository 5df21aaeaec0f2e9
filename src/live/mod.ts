/**
 * svc-live/live: the pure live core: ids, rendering and the diff engine, plus the wire protocol's names
 * and shapes. Everything here is pure (no I/O, no clock, no session).
 *
 * `Live` gathers the pieces; each is also exported on its own, and `LiveCore` is the plain object a
 * later layer can spread into a larger `Live` (`{ ...LiveCore, app }`).
 */
import { diff } from "./diff/diff.ts";
import { assignIds, keyOf, parseId, sanitizeKey } from "./ids.ts";
import { render, renderElement, renderKids } from "./render.ts";
import { handlerFor } from "./tree.ts";
import { app } from "./server/app/app.ts";
import { batch, bindSessionUser, endSession, none, rotateSession, task } from "./server/session/commands.ts";
import { every } from "./server/session/subscriptions.ts";
import { desktop } from "./desktop/desktop.ts";

export { type ClientValues, diff } from "./diff/diff.ts";
export { assignIds, keyOf, NAME_KEYED_TAGS, type ParsedId, parseId, sanitizeKey } from "./ids.ts";
export { render, renderElement, renderKids, renderNode } from "./render.ts";
export { escapeAttr, escapeText } from "./escape.ts";
export { handlerFor, type LiveElement, type LiveNode, type LiveTree } from "./tree.ts";
export * from "../protocol/markup.ts";

/** The pure live core (render, ids, diff) as one object, for a layer that builds a larger `Live`. */
export const LiveCore = { render, renderElement, renderKids, diff, assignIds, parseId, sanitizeKey, keyOf, handlerFor } as const;

export { app, LiveApp, type LiveAppOptions } from "./server/app/app.ts";
export { batch, bindSessionUser, type Cmd, type Dispatch, endSession, none, rotateSession, task } from "./server/session/commands.ts";
export type { InitContext, LiveDefinition, Update } from "./server/session/definition.ts";
export type { Frame } from "./server/streams/sse-wire.ts";
export { MemorySessionStore, type SessionSnapshot, type SessionStore } from "./server/registry/snapshot-store.ts";
export type { SessionCounts } from "./server/registry/bounds.ts";
export { every, type Sub } from "./server/session/subscriptions.ts";
export { desktop, type DesktopApp, type DesktopOptions } from "./desktop/desktop.ts";

/**
 * `Live`: the app builder (`Live.app(definition, options)`), the desktop mode (`Live.desktop(app)`), the commands an update may return
 * (`Live.task`, `Live.batch`, `Live.bindSessionUser`, `Live.endSession`, ...), subscriptions
 * (`Live.every`) and the pure core.
 */
export const Live = { ...LiveCore, app, desktop, every, task, batch, none, bindSessionUser, endSession, rotateSession } as const;
