/**
 * A one-time notice from a form POST to the page it redirects to (a failed sign-in's error and the
 * email to fill in again), carried in a short-lived HttpOnly cookie rather than the URL, so that
 * an email never lands in the address bar, the history or a proxy's logs. The next page load reads
 * it (the live app's init sees the request) and its response clears it.
 */
import { Server } from "../../src/mod.ts";

export const FLASH_COOKIE = "svc_demo_flash";

/** Which form the notice is for; the same two as the model's AuthForm, spelled here so the model can import this module. */
export type FlashForm = "login" | "signup";

export type Flash = { readonly form: FlashForm; readonly error: string; readonly email: string };

/** `resp` with the notice set for the next page load (a minute at most). */
export function withFlash(resp: Response, flash: Flash): Response {
  return Server.withCookie(FLASH_COOKIE, encodeURIComponent(JSON.stringify(flash)), "Path=/; HttpOnly; SameSite=Lax; Max-Age=60", resp);
}

/** The notice the request carries, if any; anything malformed reads as none. */
export function readFlash(req: Request): Flash | undefined {
  const raw = Server.getCookie(FLASH_COOKIE, req);
  if (raw === undefined || raw === "") return undefined;
  try {
    const value: unknown = JSON.parse(decodeURIComponent(raw));
    if (typeof value !== "object" || value === null) return undefined;
    const { form, error, email } = value as Record<string, unknown>;
    return {
      form: form === "signup" ? "signup" : "login",
      error: typeof error === "string" ? error : "",
      email: typeof email === "string" ? email : "",
    };
  } catch {
    return undefined;
  }
}

/** A page response that used the notice: the cookie is cleared so a reload shows a clean form. */
export function clearFlash(req: Request, resp: Response): Response {
  if (req.method !== "GET" || readFlash(req) === undefined) return resp;
  if (!(resp.headers.get("Content-Type") ?? "").startsWith("text/html")) return resp;
  return Server.withCookie(FLASH_COOKIE, "", "Path=/; HttpOnly; SameSite=Lax; Max-Age=0", resp);
}
