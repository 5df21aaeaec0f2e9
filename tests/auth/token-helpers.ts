// Helpers for the token tests: base64url by hand (independent of the code under test).
export const b64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");
export const unb64url = (segment: string) => Buffer.from(segment, "base64url").toString("utf8");
export const SECRET_TEXT = "a-test-secret-that-is-long-enough-0123456789";
export const NOW = 1_800_000_000;
