/** Response builders and form reading of the HTTP server module (docs/auth.md#cookies). */
import type { Context } from "hono";
import { requestOf, withMutableHeaders } from "./cookies.ts";

/**
 * A plain-text response (`text/plain; charset=utf-8`), for a handler outside a Hono context.
 *
 * @example
 * ```ts
 * import { Server } from "svc-live";
 *
 * const health = (): Response => Server.text("ok");
 * const notFound = (): Response => Server.text("no such page", 404);
 * ```
 */
export function text(body: string, status = 200): Response {
  return new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/**
 * A JSON response: `value` as `JSON.stringify` writes it, with `Content-Type: application/json`.
 *
 * @example
 * ```ts
 * import { Server } from "svc-live";
 *
 * const created = (id: number): Response => Server.json({ id, href: `/items/${id}` }, 201);
 * ```
 */
export function json(value: unknown, status = 200): Response {
  return new Response(JSON.stringify(value), { status, headers: { "Content-Type": "application/json" } });
}

/**
 * The response with another status; its body and headers (its cookies too) are kept.
 *
 * @example
 * ```ts
 * import { Server } from "svc-live";
 *
 * declare function renderLoginPage(error: string): Response;
 * // The login page again, as a 401, for a wrong password.
 * const refused = Server.withStatus(401, renderLoginPage("wrong email or password"));
 * ```
 */
export function withStatus(code: number, resp: Response): Response {
  const source = withMutableHeaders(resp);
  return new Response(source.body, { status: code, headers: source.headers });
}

type FormFields = { get(name: string): FormDataEntryValue | string | null };
const forms = new WeakMap<Request, Promise<FormFields | undefined>>();

async function readForm(req: Request): Promise<FormFields | undefined> {
  const type = (req.headers.get("Content-Type") ?? "").toLowerCase();
  try {
    if (type.startsWith("multipart/form-data")) return await req.formData();
    // application/x-www-form-urlencoded, and bodies sent without a type by simple clients.
    return new URLSearchParams(await req.text());
  } catch {
    return undefined;
  }
}

/**
 * A form field's text, "" when absent (or when the body is not a form). The body is read once per
 * request, however many fields are asked for: urlencoded or multipart.
 *
 * @example
 * ```ts
 * import { Server } from "svc-live";
 * import { Hono } from "hono";
 *
 * const app = new Hono();
 * app.post("/subscribe", async (c) => {
 *   const email = await Server.formValue("email", c);
 *   if (!email.includes("@")) return c.text("an email address, please", 400);
 *   return c.redirect("/thanks", 303);
 * });
 * ```
 */
export async function formValue(name: string, reqOrContext: Request | Context): Promise<string> {
  const req = requestOf(reqOrContext);
  let form = forms.get(req);
  if (form === undefined) {
    form = readForm(req);
    forms.set(req, form);
  }
  const value = (await form)?.get(name);
  return typeof value === "string" ? value : "";
}
