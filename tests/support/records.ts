/**
 * A handler's record as plain data, to compare with an expected `{ msg, args }` (a key filter's
 * `key` too): records are class instances (src/ui/handler-message.ts) whose fields are their own.
 */
import type { MessageRecord } from "../../src/ui/node.ts";

export function recordData(record: MessageRecord | undefined): object | undefined {
  if (record === undefined) return undefined;
  const data = { msg: record.msg, args: [...record.args] };
  return record.key === undefined ? data : { ...data, key: record.key };
}
