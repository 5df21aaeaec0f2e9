/**
 * The hooks each runtime's inspector calls to print an object. Node's util.inspect and Bun's
 * console both use the registered "nodejs.util.inspect.custom" symbol; Deno's console uses its own.
 */
export const inspectHooks: readonly symbol[] = [
  Symbol.for("nodejs.util.inspect.custom"),
  Symbol.for("Deno.customInspect"),
];
