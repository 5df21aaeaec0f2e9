/** Moved to src/protocol/http.ts; this re-export keeps older import paths working. */
export * from "../../protocol/http.ts";
