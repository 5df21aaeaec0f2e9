/** Moved to src/protocol/markup.ts; this re-export keeps older import paths working. */
export * from "../protocol/markup.ts";
