// Every operation that changes config.toml goes through here: validate the new
// text as a whole config, write it atomically, reload; when the reload fails
// the previous file is put back (docs/config.md#reload, docs/config.md#the-config-as-json).
import { readFileSync } from "node:fs";
import { badRequest, internal } from "../protocol/errors.ts";
import { ConfigError } from "../config/error.ts";
import { parseConfigText } from "../config/load.ts";
import { writeFileAtomicSync } from "../base/atomic-file.ts";
import { checkAgentCwds } from "../config/working-dir.ts";
import type { DaemonState } from "./state.ts";

/** Validation failures are 400 with the config's message; everything else is 500. */
export async function changeConfig(state: DaemonState, edit: (text: string) => string, what: string): Promise<void> {
  const previous = readFileSync(state.paths.config, "utf8");
  let next: string;
  try {
    next = edit(previous);
    checkAgentCwds(parseConfigText(next).config, state.env);
  } catch (err) {
    if (err instanceof ConfigError) throw badRequest(err.message);
    throw err;
  }
  writeFileAtomicSync(state.paths.config, next);
  try {
    await state.reload();
  } catch (err) {
    writeFileAtomicSync(state.paths.config, previous);
    throw internal(`config written but reload failed, previous config restored: ${(err as Error).message}`);
  }
  state.log.info("config changed", { by: what });
}

/** `JSON.parse` of a client's `config` string, as a 400 when it is not a JSON object. */
export function parseJsonObject(json: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    throw badRequest(`invalid ${what} JSON: ${(err as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw badRequest(`invalid ${what} JSON: expected an object`);
  return value as Record<string, unknown>;
}
