/**
 * The runtime's own thread-pooled bcrypt, where one exists and writes standard $2b$ hashes:
 * Bun.password (docs/auth.md#passwords). Elsewhere undefined, and the worker pool is used.
 * Callers have already refused passwords over 72 bytes (Bun would pre-hash those, which no other
 * bcrypt could verify).
 */
export interface NativeBcrypt {
  hash(password: string, cost: number): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
}

type BunPassword = {
  hash(password: string, options: { algorithm: "bcrypt"; cost: number }): Promise<string>;
  verify(password: string, hash: string, algorithm: "bcrypt"): Promise<boolean>;
};
const bunPassword = (globalThis as unknown as { Bun?: { password?: BunPassword } }).Bun?.password;

export const nativeBcrypt: NativeBcrypt | undefined = bunPassword && {
  hash: (password, cost) => bunPassword.hash(password, { algorithm: "bcrypt", cost }),
  verify: (password, hash) => bunPassword.verify(password, hash, "bcrypt"),
};
