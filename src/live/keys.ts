/** Moved to src/protocol/markup.ts; this re-export keeps older import paths working. */
export { sanitizeKey } from "../protocol/markup.ts";
