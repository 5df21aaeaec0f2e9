/**
 * svc-live/live: the pure live core: ids, rendering and the diff engine, plus the wire protocol's names
 * and shapes. Everything here is pure (no I/O, no clock, no session).
 *
 * `Live` gathers the pieces; each is also exported on its own, and `LiveCore` is the plain object a
 * later layer can spread into a larger `Live` (`{ ...LiveCore, app }`).
 */
import * as diffs from "./diff/diff.ts";
import * as ids from "./ids.ts";
import * as renders from "./render.ts";
import * as trees from "./tree.ts";
import * as apps from "./server/app/build.ts";
import * as commands from "./server/session/commands.ts";
import * as subscriptions from "./server/session/subscriptions.ts";
import * as definitions from "./server/session/definition.ts";
import * as desktops from "./desktop/desktop.ts";

export { type ClientValues, diff } from "./diff/diff.ts";
export { assignIds, keyOf, NAME_KEYED_TAGS, type ParsedId, parseId, sanitizeKey } from "./ids.ts";
export { render, renderElement, renderKids, renderNode } from "./render.ts";
export { escapeAttr, escapeText } from "./escape.ts";
export { handlerFor, type LiveElement, type LiveNode, type LiveTree } from "./tree.ts";
export * from "../protocol/markup.ts";

/** The pure live core (render, ids, diff) as one object, for a layer that builds a larger `Live`. */
// deno-lint-ignore no-namespace -- aliases: the API reference shows each member's own signature, text and example
export namespace LiveCore {
  export import render = renders.render;
  export import renderElement = renders.renderElement;
  export import renderKids = renders.renderKids;
  export import diff = diffs.diff;
  export import assignIds = ids.assignIds;
  export import parseId = ids.parseId;
  export import sanitizeKey = ids.sanitizeKey;
  export import keyOf = ids.keyOf;
  export import handlerFor = trees.handlerFor;
}

export { LiveApp, type LiveAppOptions } from "./server/app/app.ts";
export type { FailureNoticeInput } from "./server/http/error-page.ts";
export { app } from "./server/app/build.ts";
export { batch, bindSessionUser, type Cmd, type Dispatch, endSession, none, rotateSession, task } from "./server/session/commands.ts";
export {
  type InitContext,
  type LiveDefinition,
  type Unhandled,
  unhandled,
  type Update,
  type UpdateFunction,
  type UpdateHandlers,
} from "./server/session/definition.ts";
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
// deno-lint-ignore no-namespace -- aliases: the API reference shows each member's own signature, text and example
export namespace Live {
  export import render = renders.render;
  export import renderElement = renders.renderElement;
  export import renderKids = renders.renderKids;
  export import diff = diffs.diff;
  export import assignIds = ids.assignIds;
  export import parseId = ids.parseId;
  export import sanitizeKey = ids.sanitizeKey;
  export import keyOf = ids.keyOf;
  export import handlerFor = trees.handlerFor;
  export import app = apps.app;
  export import desktop = desktops.desktop;
  export import every = subscriptions.every;
  export import task = commands.task;
  export import batch = commands.batch;
  export import none = commands.none;
  export import bindSessionUser = commands.bindSessionUser;
  export import endSession = commands.endSession;
  export import rotateSession = commands.rotateSession;
  export import unhandled = definitions.unhandled;
}
