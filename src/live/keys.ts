/**
 * Key sanitising (live-input-authority.md §Node id): every character outside ASCII letters,
 * digits, `-` and `_` becomes `_`, so a key can sit in an id. The view builders apply it once,
 * when an element is built (src/ui/node.ts), so the id walk on every render reads a final key.
 */
const CLEAN_KEY = /^[A-Za-z0-9_-]*$/;

export function sanitizeKey(key: string): string {
  return CLEAN_KEY.test(key) ? key : key.replace(/[^A-Za-z0-9_-]/gu, "_");
}
