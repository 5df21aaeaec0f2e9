/** A short random id (96 bits, base 36 pieces) for naming a process or replica; not a secret. */
export function randomId(): string {
  const words = crypto.getRandomValues(new Uint32Array(3));
  return Array.from(words, (word) => word.toString(36).padStart(7, "0")).join("");
}
