/**
 * Whether two strings are equal, in a time that does not depend on where they differ, so that
 * a sender cannot find a valid signature one character at a time. Plain JavaScript, the same on
 * every runtime.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  // Without this, a prefix of the expected signature (even an empty one) would match.
  if (a.length !== b.length) return false;
  let diff = 0;
  for (const [i, char] of a.split("").entries()) diff |= char.charCodeAt(0) ^ b.charCodeAt(i);
  return diff === 0;
}
