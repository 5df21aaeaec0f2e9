/**
 * Replacing a Hono context's response outright. Assigning c.res merges the old response's headers
 * (Set-Cookie included) into the new one, which would undo a rewrite of those headers; clearing it
 * first makes the assignment a plain replacement.
 */
import type { Context } from "hono";

export function replaceResponse(c: Context, resp: Response): void {
  if (c.res === resp) return;
  c.res = undefined as unknown as Response;
  c.res = resp;
}
