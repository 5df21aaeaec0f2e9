/** The live server layer: Live.app and the values an app's update and subscriptions return. */
export { app, LiveApp, type LiveAppOptions } from "./app.ts";
export { batch, bindSessionUser, type Cmd, type Dispatch, endSession, none, rotateSession, task } from "./commands.ts";
export type { InitContext, LiveDefinition, Update } from "./definition.ts";
export type { Frame } from "./frames.ts";
export { MemorySessionStore, type SessionSnapshot, type SessionStore } from "./store.ts";
export { every, type Sub } from "./subscriptions.ts";
export * as wire from "../../protocol/http.ts";
