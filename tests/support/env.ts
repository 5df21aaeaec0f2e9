// Runs a test body with environment variables set (or unset, with undefined), restoring them after.
export async function withEnv<T>(vars: Record<string, string | undefined>, body: () => T | Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  apply(vars);
  try {
    return await body();
  } finally {
    apply(saved);
  }
}

/** No production signal at all: the neutral starting point of most server tests. */
export const DEV = { ENV: undefined, MYAPP_ENV: undefined, NODE_ENV: undefined } as const;
