// ACP session ids. Each ACP session talks to the daemon as its own sender
// (`acp-` and 24 hex digits), so its conversation file is
// `{agent}_acp-…_{seq}.jsonl` and can be found again by id after the ACP
// process, or the daemon, restarted (docs/editors.md#sessions).
import { randomBytes } from "node:crypto";

const PATTERN = /^acp-[0-9a-f]{24}$/;

export function newSessionId(): string {
  return `acp-${randomBytes(12).toString("hex")}`;
}

export function isSessionId(id: string): boolean {
  return PATTERN.test(id);
}
