/**
 * Compression for bytes the server sends many times (the browser clients): gzip from the Web
 * platform's CompressionStream, which Node, Bun and Deno all have, and brotli from node:zlib, the
 * one brotli encoder the three runtimes share (Node's CompressionStream has no "brotli" format).
 * node:zlib is loaded through `process.getBuiltinModule`, so a host without it simply offers no
 * brotli and the bytes go out as gzip or as they are.
 */

/** A content coding this module can produce, by its HTTP name (RFC 9110 §8.4.1). */
export type ContentCoding = "br" | "gzip";

type NodeZlib = {
  brotliCompressSync(data: Uint8Array, options: { params: Record<number, number> }): Uint8Array;
  constants: { BROTLI_PARAM_QUALITY: number; BROTLI_MAX_QUALITY: number; BROTLI_PARAM_SIZE_HINT: number };
};
type ProcessLike = { getBuiltinModule?: (id: string) => unknown };

const nodeZlib = (globalThis as { process?: ProcessLike }).process?.getBuiltinModule?.("node:zlib") as NodeZlib | undefined;

/** The codings this runtime can produce, best first. */
export function availableCodings(): readonly ContentCoding[] {
  return nodeZlib?.brotliCompressSync ? ["br", "gzip"] : ["gzip"];
}

/**
 * `data` compressed with `coding`, at the highest quality: the result is made once and sent many
 * times, so the encoder's time does not matter. Rejects for a coding not in `availableCodings()`.
 */
export async function compress(data: Uint8Array, coding: ContentCoding): Promise<Uint8Array> {
  if (coding === "br") {
    if (!nodeZlib?.brotliCompressSync) throw new Error("brotli is not available on this runtime");
    const { BROTLI_PARAM_QUALITY, BROTLI_MAX_QUALITY, BROTLI_PARAM_SIZE_HINT } = nodeZlib.constants;
    const out = nodeZlib.brotliCompressSync(data, {
      params: { [BROTLI_PARAM_QUALITY]: BROTLI_MAX_QUALITY, [BROTLI_PARAM_SIZE_HINT]: data.byteLength },
    });
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  }
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
