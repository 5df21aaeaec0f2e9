/**
 * Cookies: our in-place Cookie header scan (src/server/cookies.ts, cookieIn) against hono's parser
 * (hono/utils/cookie `parse`, what hono/cookie's getCookie runs), reading one cookie by name, and
 * our Set-Cookie line against hono's `serialize`. Both read and write the same cookies the same way
 * (checked before timing). Rounds alternate between ours and the peer and the median pair is kept.
 * The target: our parser at least as fast as hono's, or it goes in favour of hono's.
 *
 * Run: node --import tsx bench/cookie.bench.ts | npx bun bench/cookie.bench.ts | npx deno run -A bench/cookie.bench.ts
 */
import { parse, serialize } from "hono/utils/cookie";
import { cookieIn, setCookieLine } from "../src/server/cookies.ts";
import { type BenchRow, medianPair, report } from "./report.ts";

let sink = 0;
const consume = (value: string | undefined) => {
  sink = (sink + (value?.length ?? 0)) | 0;
};

/** Operations per second of `run`, for about `ms` milliseconds. */
function opsPerSecond(run: () => string | undefined, ms: number): number {
  let done = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < 1000; i++) consume(run());
    done += 1000;
    elapsed = performance.now() - start;
  }
  return (done * 1000) / elapsed;
}

function paired(ours: () => string | undefined, peer: () => string | undefined): { ours: number; peer: number } {
  opsPerSecond(ours, 100);
  opsPerSecond(peer, 100);
  const o: number[] = [];
  const p: number[] = [];
  for (let round = 0; round < 9; round++) {
    if (round % 2 === 0) {
      o.push(opsPerSecond(ours, 80));
      p.push(opsPerSecond(peer, 80));
    } else {
      p.push(opsPerSecond(peer, 80));
      o.push(opsPerSecond(ours, 80));
    }
  }
  return medianPair(o, p);
}

// A live app's request: the session and CSRF cookies, plus what a site's other cookies add.
const HEADERS = {
  "2 cookies": "svc_sid=Zx3kq0Wm7cP1hY8uN2bT5rE4aS6dF9gH1jK3lL5; __svc_csrf=Qw8eR7tY6uI5oP4aS3dF2gH1jK0lZ9xC8vB7nM6",
  "8 cookies":
    "_ga=GA1.1.123456789.1700000000; theme=dark; lang=en-GB; consent=%7B%22ads%22%3Afalse%7D; _gid=GA1.1.987654321.1700000000; " +
    "cart=3; svc_sid=Zx3kq0Wm7cP1hY8uN2bT5rE4aS6dF9gH1jK3lL5; __svc_csrf=Qw8eR7tY6uI5oP4aS3dF2gH1jK0lZ9xC8vB7nM6",
} as const;

const rows: BenchRow[] = [];
for (const [label, header] of Object.entries(HEADERS)) {
  for (const name of ["svc_sid", "__svc_csrf"]) {
    if (cookieIn(header, name) !== parse(header, name)[name]) throw new Error(`ours and hono read ${name} differently`);
    const figures = paired(() => cookieIn(header, name), () => parse(header, name)[name]);
    rows.push({
      name: `read ${name} from a Cookie header of ${label}`,
      ours: figures.ours,
      peer: figures.peer,
      peerName: "hono/utils/cookie parse",
      unit: "ops/s",
      higherIsBetter: true,
      target: "ours >= 1.0x (else use hono's)",
      met: figures.ours >= figures.peer,
    });
  }
}

const VALUE = "Zx3kq0Wm7cP1hY8uN2bT5rE4aS6dF9gH1jK3lL5";
const ourLine = () => setCookieLine("svc_sid", VALUE, "Path=/; HttpOnly; SameSite=Lax");
const honoLine = () => serialize("svc_sid", VALUE, { path: "/", httpOnly: true, sameSite: "Lax" });
if (ourLine() !== honoLine()) throw new Error(`ours and hono write different lines: ${ourLine()} / ${honoLine()}`);
const write = paired(ourLine, honoLine);
rows.push({
  name: "Set-Cookie line (session cookie)",
  ours: write.ours,
  peer: write.peer,
  peerName: "hono/utils/cookie serialize",
  unit: "ops/s",
  higherIsBetter: true,
  target: "(info)",
  met: true,
});

report("cookies", rows);
if (sink === 0.5) console.log(sink);
