// Module resolution hooks (see hide-drivers.mjs): the drivers resolve as Node resolves a package
// that is not in node_modules, with the same code and the same words.
const HIDDEN = new Set(["@libsql/client", "postgres"]);

export function resolve(specifier, context, next) {
  if (!HIDDEN.has(specifier)) return next(specifier, context);
  const error = new Error(`Cannot find package '${specifier}' imported from ${context.parentURL}`);
  error.code = "ERR_MODULE_NOT_FOUND";
  throw error;
}
