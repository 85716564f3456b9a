/** Base64 of bytes, with the platform's `btoa`. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Decodes strict base64 (padded, standard alphabet), or returns undefined. */
export function base64ToBytes(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
  const binary = atob(text);
  // By index: Uint8Array.from(binary, …) iterates the string at 1.6 µs a secret (bench: 1.6x, not 1.9x).
  return new Uint8Array(binary.length).map((_, i) => binary.charCodeAt(i));
}
