// Unknown keys in config.toml are ignored by the daemon; the commands that
// load or change the config say so where the user looks (issue 18), not only
// in the daemon log.
import type { Client } from "../protocol/client.ts";
import { unknownKeys } from "../config/schema-keys.ts";

/** One stderr line per unknown key of a parsed config document. */
export function warnUnknownKeys(doc: Record<string, unknown>): void {
  for (const problem of unknownKeys(doc)) process.stderr.write(`crabtalk: warning: config.toml: ${problem}; ignored\n`);
}

/** After a reload or a change: the daemon's config as it now stands, warned about. */
export async function warnUnknownKeysOf(client: Client): Promise<void> {
  warnUnknownKeys(JSON.parse(await client.getConfig()) as Record<string, unknown>);
}
