// Names that clients send and the daemon turns into file names: checked up
// front so that an over-long one is a 400 naming the field, not a 500 from the
// file system (ENAMETOOLONG, with a path in it).
import { badRequest } from "../protocol/errors.ts";

/** A sender's slug is part of a session file name (`{agent}_{sender}_{seq}_{title}.jsonl`, at most 255 bytes). */
export const MAX_SENDER_BYTES = 128;

/** Throws a 400 when `value` of request field `field` is longer than `max` UTF-8 bytes. */
export function checkNameLength(field: string, value: string | undefined, max: number): void {
  if (value === undefined) return;
  const bytes = Buffer.byteLength(value, "utf8");
  if (bytes > max) throw badRequest(`${field} is too long: ${bytes} bytes (at most ${max})`);
}

export function checkSender(sender: string | undefined): void {
  checkNameLength("sender", sender, MAX_SENDER_BYTES);
}
