// One stream event as one JSON object for `send --json`:
// {"type":"chunk","content":"hi"}, {"type":"start","agent":"crab","session":1}, …
// `type` is the protocol's event name (start, chunk, thinking, tool_start,
// tool_result, tools_complete, ask_user, end); the other keys are its fields.
import type { StreamEvent } from "../../protocol/gen/crabtalk_pb.ts";
import { toPlain, type Plain } from "../plain-json.ts";

export function eventJson(event: StreamEvent): { [key: string]: Plain } {
  const { case: kind, value } = event.event;
  if (kind === undefined) return { type: "unknown" };
  const fields = toPlain(value);
  const type = kind.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return { type, ...(fields && typeof fields === "object" && !Array.isArray(fields) ? fields : {}) };
}

/** An ErrorMsg that ended a stream, in the same shape. */
export function errorJson(code: number, message: string): { [key: string]: Plain } {
  return { type: "error", code, message };
}
