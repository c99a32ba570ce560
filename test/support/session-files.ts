// Reads a session file found by name prefix. A background title job may
// rename the file at any moment, so a vanished file means: look again.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** All lines (meta first) of the one session file in `dir` whose name starts with `prefix`. */
export function sessionLines(dir: string, prefix: string): Record<string, unknown>[] {
  for (let attempt = 0; ; attempt++) {
    const name = readdirSync(dir).find((f) => f.startsWith(prefix) && f.endsWith(".jsonl"));
    if (!name) throw new Error(`no session file starting with ${prefix} in ${dir}`);
    try {
      return readFileSync(join(dir, name), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT" || attempt >= 20) throw err;
    }
  }
}

/** GetConversationHistory of an identity's newest conversation, looking again if a title rename moved it. */
export async function historyOf(
  client: import("../../src/protocol/client.ts").Client,
  agent: string,
  sender: string,
): Promise<import("../../src/protocol/gen/crabtalk_pb.ts").ConversationHistory> {
  for (let attempt = 0; ; attempt++) {
    const file = (await client.listConversations(agent, sender))[0].filePath;
    try {
      return await client.getConversationHistory(file);
    } catch (err) {
      if (attempt >= 20 || (err as { code?: number }).code !== 404) throw err;
    }
  }
}
