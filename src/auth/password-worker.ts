/** Entry of a bcrypt worker thread: answers { id, op, ... } jobs with { id, ok, value }. */
import { serveWorker } from "../runtime/worker.ts";
import { bcryptHash, bcryptVerify } from "./bcrypt.ts";

export type PasswordJob =
  | { id: number; op: "hash"; password: string; cost: number }
  | { id: number; op: "verify"; password: string; hash: string };
export type PasswordAnswer = { id: number; ok: true; value: string | boolean } | { id: number; ok: false; message: string };

function run(job: PasswordJob): PasswordAnswer {
  try {
    const value = job.op === "hash" ? bcryptHash(job.password, job.cost) : bcryptVerify(job.password, job.hash);
    return { id: job.id, ok: true, value };
  } catch (error) {
    return { id: job.id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

await serveWorker((message) => run(message as PasswordJob));
