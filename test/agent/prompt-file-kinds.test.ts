// Prompt files that are not regular files (docs/config.md "[agents.<name>]"):
// a FIFO would block a read for ever and a device never ends, so they are
// never read; the log says what each is and that it was skipped, instead of
// "has no prompt file". Crab.md or a SKILL.md as a FIFO does not hang the
// daemon (a read of a FIFO would block its whole event loop).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "../../src/protocol/client.ts";
import { cleanup, tempHome } from "../support/daemon.ts";
import { startLlmDaemon, type LlmDaemon } from "../support/llm-daemon.ts";
import { until } from "../support/hub.ts";

const home = tempHome();
const agentsDir = join(home, "local/agents");
let env: LlmDaemon;
let client: Client;

function mkfifo(path: string): void {
  const r = Bun.spawnSync(["mkfifo", path]);
  if (r.exitCode !== 0) throw new Error(`mkfifo ${path}: ${r.stderr.toString()}`);
}

beforeAll(async () => {
  mkdirSync(agentsDir, { recursive: true });
  writeFileSync(join(home, "local/CrabTalk.toml"), "[agents.piped]\n\n[agents.nulled]\n\n[agents.fine]\n\n[agents.absent]\n");
  mkfifo(join(agentsDir, "piped.md"));
  symlinkSync("/dev/null", join(agentsDir, "nulled.md"));
  writeFileSync(join(agentsDir, "fine.md"), "A fine agent.\n");
  mkfifo(join(agentsDir, "loose.md"));
  mkfifo(join(home, "Crab.md"));
  mkdirSync(join(home, "local/skills/piped"), { recursive: true });
  mkfifo(join(home, "local/skills/piped/SKILL.md"));
  env = await startLlmDaemon("openai", { home });
  client = await env.daemon.client();
});
afterAll(async () => {
  await client?.close();
  await env?.stop();
  cleanup(home);
});

const logText = (wanted: string[]) =>
  until(
    async () => readFileSync(join(home, "logs/daemon.log"), "utf8"),
    (t) => wanted.every((w) => t.includes(w)),
  );

test("each non-regular prompt file is named with what it is and skipped; regular ones load", async () => {
  const wanted = [
    `agent 'piped' is configured but its prompt file ${join(agentsDir, "piped.md")} is a FIFO (named pipe), not a regular file: skipped until it is one`,
    `agent 'nulled' is configured but its prompt file ${join(agentsDir, "nulled.md")} is a symbolic link to a character device, not a regular file: skipped until it is one`,
    `ignoring prompt file ${join(agentsDir, "loose.md")} is a FIFO (named pipe), not a regular file: skipped`,
    `ignoring ${join(home, "Crab.md")}: it is a FIFO (named pipe), not a regular file; crab uses its default persona`,
    // A file that is not there at all keeps its own message.
    "agent 'absent' is configured but has no prompt file absent.md in local/agents/",
  ];
  const log = await logText(wanted);
  for (const w of wanted) expect(log).toContain(w);
  expect(log).not.toContain("agent 'piped' is configured but has no prompt file");
  const agents = (await client.listAgents()).map((a) => a.name).sort();
  expect(agents).toEqual(["crab", "fine"]);
});

test("a message naming a skill whose SKILL.md is a FIFO is answered; the FIFO is not read", async () => {
  env.fake.script({ text: "answered anyway" });
  const reply = await client.send({ agent: "crab", content: "/piped hello", newChat: true });
  expect(reply.content).toBe("answered anyway");
});
