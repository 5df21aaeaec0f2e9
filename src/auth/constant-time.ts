/**
 * Equality whose running time depends only on the length, not on where the inputs differ, so a
 * signature or hash cannot be recovered byte by byte from timings. Lengths are public here (a
 * signature is always 43 characters, a bcrypt hash 60).
 */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
