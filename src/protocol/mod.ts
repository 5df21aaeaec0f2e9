/**
 * The live wire protocol, every name and shape of it, in one module that the server (src/live),
 * the view builders (src/ui) and the browser client (client/) import. It imports nothing of
 * theirs. docs/protocol.md describes the protocol in prose, section by section.
 */
export * from "./derive.ts";
export * from "./http.ts";
export * from "./markup.ts";
export * from "./messages.ts";
