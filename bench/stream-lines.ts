/**
 * The lines of a child process's output (or of stdin) as they arrive: for the benches that talk
 * to processes of their own line by line (bench/http.bench.ts, bench/table.bench.ts and its round
 * processes).
 */
export function onLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let pending = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    pending += chunk;
    const parts = pending.split("\n");
    pending = parts.pop()!;
    for (const line of parts) onLine(line);
  });
}
