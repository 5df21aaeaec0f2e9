// A TypeScript app using the installed package through its declarations: every subpath, the
// typed model of a live app, tokens, the database handle and the server helpers. Type-checked with
// `tsc --noEmit` under strict settings without skipLibCheck or Node's types, once with moduleResolution
// node16 and once with bundler.
import { Auth, Db, type JsonObject, Live, type Result, Secret, Server, Ui } from "svc-live";
import { Auth as AuthAgain, type StrengthLabel } from "svc-live/auth";
import { Server as ServerAgain } from "svc-live/server";
import { LiveApp, type LiveDefinition } from "svc-live/live";
import { Ui as UiAgain, type UiElement } from "svc-live/ui";
import { Db as DbAgain, type DbRow } from "svc-live/db";
import { jsx } from "svc-live/jsx-runtime";
import { jsxDEV } from "svc-live/jsx-dev-runtime";

type Model = { readonly count: number; readonly name: string };

const definition: LiveDefinition<Model> = {
  init: () => ({ count: 0, name: "" }),
  update: (
    model,
    msg,
    args,
  ) => (msg === "Inc" ? { ...model, count: model.count + 1 } : msg === "SetName" ? { ...model, name: String(args[0] ?? "") } : model),
  view: (model) => Ui.h("main", {}, Ui.h("p", {}, `${model.name}: ${model.count}`), Ui.h("button", { onClick: "Inc" }, "+")),
};
export const app: LiveApp<Model> = Live.app(definition, { title: "consumer" });
export const handler: (req: Request) => Response | Promise<Response> = (req) => app.fetch(req);

const secret: Secret = Secret.fromString("a consumer secret of more than 32 bytes");
const token: Result<string> = Auth.signToken(secret, { sub: "1", roles: ["admin"] }, 3600);
export const claims: Result<JsonObject> = token.ok ? AuthAgain.verifyToken(secret, token.value) : token;
export const strength: StrengthLabel | undefined = ((r) => (r.ok ? r.value : undefined))(Auth.passwordStrength("correct horse"));

export async function firstRow(url: string): Promise<DbRow | undefined> {
  const db: Db = DbAgain.open(url);
  const rows = await db.query({ sql: "select 1 as one", args: [] });
  await db.close();
  return rows.ok ? rows.value[0] : undefined;
}

export const resolveAddress = ServerAgain.clientAddressResolver({ trustProxy: 1 });
export const sameServer: typeof Server = ServerAgain;
export const sameUi: typeof Ui = UiAgain;
export const page: UiElement = Ui.h("p", {}, "typed");
export const element = jsx("p", { children: "hello" });
export const devElement = jsxDEV("p", { children: "hello" }, undefined, false);
