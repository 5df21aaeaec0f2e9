// The package inside one esbuild bundle (run.sh builds it with the password worker as a second
// entry beside it, as docs/deployment.md#bundling says): tokens, a password hashed in the worker
// thread, and a missing optional driver still reported at run time, not refused by the bundler.
import { Auth, Db, Secret } from "svc-live";

const check = (ok, what) => {
  if (!ok) throw new Error(`bundle: ${what}`);
  console.log(`ok   ${what}`);
};
const secret = Secret.fromString("a bundled secret of more than 32 bytes");
const token = Auth.signToken(secret, { sub: "b" }, 60);
check(token.ok && Auth.verifyToken(secret, token.value).value?.sub === "b", "signToken and verifyToken in a bundle");
const hash = await Auth.hashPassword("correct horse battery staple", 4);
check(
  hash.ok && (await Auth.verifyPassword("correct horse battery staple", hash.value)).value === true,
  `hashPassword in a bundle, through the worker beside it${hash.ok ? "" : `: ${hash.error.message}`}`,
);
const db = Db.open(":memory:");
const result = await db.query({ sql: "select 1", args: [] });
check(
  !result.ok && result.error.message.includes("npm install @libsql/client"),
  "a driver left out of the bundle is reported with its install command",
);
await db.close();
