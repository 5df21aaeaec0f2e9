// Loaded with `node --import`: makes the optional database drivers look uninstalled, the way a
// fresh app that has not run `npm install @libsql/client` (or `postgres`) sees them.
import { register } from "node:module";

register("./hide-drivers-hooks.mjs", import.meta.url);
