/**
 * The browser client, bundled from client/ into one ES module (npm run build:client writes this
 * file; do not edit by hand). Served at <base>/_svc/client.js.
 */
export const CLIENT_BUNDLE = "";
