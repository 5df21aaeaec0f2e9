/**
 * How the server normalises profile fields. While the user types (an input event) the rules
 * never remove what the next keystroke builds on: a trailing space stays, so "ada " can become
 * "Ada Lovelace". The full trim happens on commit (a change event: blur or Enter).
 */

/** Title case, no leading space, single spaces, at most 40 characters; the trailing space stays. */
export function displayNameWhileTyping(raw: string): string {
  return raw
    .replace(/\s+/g, " ")
    .replace(/^ /, "")
    .slice(0, 40)
    .toLowerCase()
    .replace(/(^|[ \-'])(\p{L})/gu, (_, sep: string, letter: string) => sep + letter.toUpperCase());
}

/** What is stored: the typing rules, then trimmed. */
export function displayName(raw: string): string {
  return displayNameWhileTyping(raw).trim();
}

/** Lower case letters, digits and underscores, at most 20. */
export function handle(raw: string): string {
  return raw.toLowerCase().replace(/[^a-z0-9_]/g, "").slice(0, 20);
}
