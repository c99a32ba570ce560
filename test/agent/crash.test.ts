// SIGKILL in the middle of 50 concurrent streamed runs: after a restart every
// session file loads, and every run that had received its End is on disk.
import { afterAll, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "../../src/protocol/client.ts";
import { loadSessionFile } from "../../src/session/file.ts";
import { cleanup, startDaemon, tempHome } from "../support/daemon.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import { providerConfig } from "../support/llm-daemon.ts";

const RUNS = 50;
const fakePromise = startFakeOpenAI();
afterAll(async () => (await fakePromise).stop());

interface RunRecord {
  sender: string;
  text: string;
  ended: boolean;
}

test("every session file loads after a SIGKILL mid-run, and every ended run is fully persisted", async () => {
  const fake = await fakePromise;
  const home = tempHome();
  const config = providerConfig("openai", fake);
  const daemon = await startDaemon({ home, config });
  // Each run: one tool round (a tool that does not exist: an error result), then a final answer.
  // Delays spread the runs so the kill lands with some finished and some in flight.
  for (let i = 0; i < RUNS; i++) {
    fake.script(
      { toolCalls: [{ id: `c${i}`, name: "nothing_here", arguments: "{}" }], delayMs: (i * 37) % 400 },
      { text: `final answer ${i}`, delayMs: (i * 53) % 400 },
    );
  }
  const records: RunRecord[] = [];
  const clients: Client[] = [];
  const runs = Array.from({ length: RUNS }, async (_, i) => {
    const record: RunRecord = { sender: `u${i}`, text: "", ended: false };
    records.push(record);
    const client = await daemon.client();
    clients.push(client);
    try {
      for await (const e of client.stream({ agent: "crab", content: `question ${i}`, sender: record.sender })) {
        if (e.event.case === "chunk") record.text += e.event.value.content;
        if (e.event.case === "end") record.ended = e.event.value.error === "";
      }
    } catch {
      // The daemon died under us: expected for runs in flight.
    }
  });
  // Kill as soon as one run has ended (not after a fixed time: under load none may have by then).
  for (let waited = 0; !records.some((r) => r.ended) && waited < 20_000; waited += 10) await Bun.sleep(10);
  daemon.proc.kill("SIGKILL");
  await daemon.proc.exited;
  await Promise.all(runs);

  const ended = records.filter((r) => r.ended);
  expect(ended.length).toBeGreaterThan(0);
  expect(ended.length).toBeLessThan(RUNS); // the kill really landed mid-way

  const restarted = await startDaemon({ home, config });
  try {
    const sessionsDir = join(home, "sessions");
    const files = readdirSync(sessionsDir).filter((f) => f.endsWith(".jsonl"));
    expect(files.length).toBeGreaterThan(0);
    const client = await restarted.client();
    for (const f of files) {
      const loaded = await loadSessionFile(join(sessionsDir, f)); // throws if unloadable
      expect(loaded.meta.agent).toBe("crab");
      const history = await client.getConversationHistory(join(sessionsDir, f));
      expect(history.agent).toBe("crab");
    }
    for (const r of ended) {
      const file = files.find((f) => f.startsWith(`crab_${r.sender}_`));
      expect(file).toBeDefined();
      const text = readFileSync(join(sessionsDir, file!), "utf8");
      const lines = text
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => JSON.parse(l));
      const ix = records.indexOf(r);
      expect(lines[0]).toEqual({ role: "user", content: `question ${ix}` });
      expect(lines.at(-1)).toEqual({ role: "assistant", content: r.text });
      expect(lines.every((l) => ["user", "assistant", "tool"].includes(l.role))).toBe(true);
    }
    await client.close();
  } finally {
    await restarted.stop();
    for (const c of clients) await c.close().catch(() => {});
    cleanup(home);
  }
}, 60_000);
