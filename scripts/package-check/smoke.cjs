// CommonJS: require() of every subpath (Node 20.19+ loads ES modules that have no top-level await).
const { readFileSync } = require("node:fs");
const manifest = require.resolve("svc-live/package.json");
const subpaths = Object.keys(JSON.parse(readFileSync(manifest, "utf8")).exports);
for (const subpath of subpaths.filter((path) => !/\.(js|json)$/.test(path))) {
  const name = `svc-live${subpath === "." ? "" : subpath.slice(1)}`;
  const mod = require(name);
  if (Object.keys(mod).length === 0) throw new Error(`require(${name}) is empty`);
  console.log(`ok   require("${name}")`);
}
const { Auth, Secret } = require("svc-live");
const secret = Secret.fromString("a smoke-test secret of more than 32 bytes");
const token = Auth.signToken(secret, { sub: "cjs" }, 60);
if (!token.ok || Auth.verifyToken(secret, token.value).value.sub !== "cjs") throw new Error("token round trip under require()");
console.log("ok   signToken and verifyToken under require()");
