/** The live server layer: Live.app and the values an app's update and subscriptions return. */
export { LiveApp, type LiveAppOptions } from "./app/app.ts";
export { app } from "./app/build.ts";
export { batch, bindSessionUser, type Cmd, type Dispatch, endSession, none, rotateSession, task } from "./session/commands.ts";
export type { InitContext, LiveDefinition, Update } from "./session/definition.ts";
export type { Frame } from "./streams/sse-wire.ts";
export { MemorySessionStore, type SessionSnapshot, type SessionStore } from "./registry/snapshot-store.ts";
export { every, type Sub } from "./session/subscriptions.ts";
export * as wire from "../../protocol/http.ts";
