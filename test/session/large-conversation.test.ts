// Conversations far larger than any context window (docs/sessions.md#large-conversations
//): a resume reads only the newest part of the file, a run
// sends the model the newest history that fits its window, and the file
// stays whole on disk.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeSync, closeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Message } from "../../src/model/types.ts";
import { fitToContext } from "../../src/runtime/fit-context.ts";
import { countMessageLines, loadSessionFile } from "../../src/session/file.ts";
import { messageToLine, metaToLine, newSessionMeta, type StoredMessage } from "../../src/session/jsonl.ts";
import { sessionFileName } from "../../src/session/names.ts";
import { isTitleRequest } from "../support/fake-llm.ts";
import { useLlmDaemon } from "../support/llm-daemon.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A session file of `count` user/assistant pairs (each message `size` bytes), written in batches. */
function writeLongSession(path: string, count: number, size: number, tail: StoredMessage[] = []): void {
  const fd = openSync(path, "w", 0o600);
  try {
    writeSync(fd, `${metaToLine(newSessionMeta("crab", "big-user"))}\n`);
    let batch: string[] = [];
    for (let i = 0; i < count; i++) {
      const pad = "x".repeat(size);
      batch.push(messageToLine({ role: "user", content: `question ${i} ${pad}` }));
      batch.push(messageToLine({ role: "assistant", content: `answer ${i} ${pad}` }));
      if (batch.length >= 1000) {
        writeSync(fd, `${batch.join("\n")}\n`);
        batch = [];
      }
    }
    for (const m of tail) batch.push(messageToLine(m));
    if (batch.length > 0) writeSync(fd, `${batch.join("\n")}\n`);
  } finally {
    closeSync(fd);
  }
}

test("a file larger than the resume window loads its newest messages only, starting at a user message", async () => {
  const dir = mkdtempSync(join(tmpdir(), "crabtalk-large-"));
  dirs.push(dir);
  const path = join(dir, "s.jsonl");
  writeLongSession(path, 500, 100, [
    { role: "user", content: "run it" },
    { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "bash", arguments: '{"command":"ls"}' }] },
    { role: "tool", content: "a b c", toolCallId: "c1", name: "bash" },
    { role: "assistant", content: "done" },
  ]);
  const whole = await loadSessionFile(path, Number.MAX_SAFE_INTEGER);
  expect(whole.messages).toHaveLength(1004);

  // A window that cuts the file somewhere inside a line and inside a pair.
  for (const window of [1000, 4321, 20_000]) {
    const { meta, messages } = await loadSessionFile(path, window);
    expect(meta.agent).toBe("crab");
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.length).toBeLessThan(whole.messages.length);
    expect(messages[0].role).toBe("user");
    expect(messages).toEqual(whole.messages.slice(whole.messages.length - messages.length));
  }
  // Counting reads the file a chunk at a time and finds every message.
  expect(await countMessageLines(path)).toBe(1004);
});

test("a history past the context window is cut to its newest part that fits, from a user message", () => {
  const history: Message[] = [];
  for (let i = 0; i < 100; i++) {
    history.push({ role: "user", content: `q${i} ${"y".repeat(396)}` }); // about 100 tokens each
    history.push({ role: "assistant", content: `a${i} ${"y".repeat(396)}` });
  }
  const last = history.at(-1);
  const dropped = fitToContext(history, 1000);
  expect(dropped).toBeGreaterThan(0);
  expect(history[0].role).toBe("user");
  expect(history.at(-1)).toBe(last);
  const bytes = history.reduce((n, m) => n + Buffer.byteLength(m.content), 0);
  expect(bytes / 4).toBeLessThanOrEqual(900);
  // Already fitting: untouched.
  expect(fitToContext(history, 1000)).toBe(0);
});

const WINDOW = 20_000;
const t = useLlmDaemon("openai", { providerConfig: `context_limits = { "fake-model" = ${WINDOW} }` });

test("resuming a 60 MB conversation sends the newest history that fits the window; the run completes and the file stays whole", async () => {
  const { client, env } = t;
  const sessions = join(env.daemon.home, "sessions");
  mkdirSync(sessions, { recursive: true });
  const path = join(sessions, sessionFileName("crab", "big-user", 1));
  writeLongSession(path, 6_000, 4_800);
  const size = statSync(path).size;
  expect(size).toBeGreaterThan(50_000_000);

  env.fake.script({ text: "resumed fine" });
  const reply = await client.send({ agent: "crab", content: "the newest question", sender: "big-user", resumeFile: path });
  expect(reply.content).toBe("resumed fine");

  const answered = env.fake.requests.filter((r) => r.body?.stream !== undefined && !isTitleRequest(r.body));
  // The run's own request (a compaction of the long history may follow it).
  const sent = answered[0].body.messages as Array<{ role: string; content: string }>;
  const texts = sent.map((m) => m.content);
  expect(texts.at(-1)).toContain("the newest question");
  expect(texts.some((c) => c.startsWith("answer 5999 "))).toBe(true);
  expect(texts.some((c) => c.startsWith("question 0 "))).toBe(false);
  const historyBytes = sent.filter((m) => m.role !== "system").reduce((n, m) => n + Buffer.byteLength(m.content ?? ""), 0);
  expect(historyBytes / 4).toBeLessThanOrEqual(WINDOW);
  // Nothing of the file was dropped: the new turn was appended to all of it.
  expect(statSync(path).size).toBeGreaterThan(size);
  expect(await countMessageLines(path)).toBe(12_002);
}, 60_000);

test("history pages through every message of a large conversation exactly once; without a page it answers the newest part", async () => {
  const { client, env } = t;
  const sessions = join(env.daemon.home, "sessions");
  mkdirSync(sessions, { recursive: true });
  const path = join(sessions, sessionFileName("crab", "pager", 1));
  writeLongSession(path, 3_000, 4_800); // 29 MB: past one reply frame

  // Upstream's form (no page): the working context, bounded, not "reply too large".
  const context = await client.getConversationHistory(path);
  expect(context.messages.at(-1)!.content).toStartWith("answer 2999 ");
  expect(context.messages.length).toBeLessThan(6_000);

  const seen: string[] = [];
  for (let offset = 0; ; ) {
    const page = await client.getConversationHistory(path, { offset, limit: 2_500 });
    expect(page.total).toBe(6_000);
    expect(page.offset).toBe(offset);
    // A page stops short of its limit rather than pass the size a reply can carry.
    expect(page.messages.length).toBeGreaterThan(0);
    expect(page.messages.length).toBeLessThanOrEqual(2_500);
    for (const m of page.messages) seen.push(m.content.slice(0, m.content.indexOf(" x")));
    offset += page.messages.length;
    if (offset >= page.total) break;
  }
  const expected = Array.from({ length: 3_000 }, (_, i) => [`question ${i}`, `answer ${i}`]).flat();
  expect(seen).toEqual(expected);
  // Past the end: an empty page, still with the total.
  const after = await client.getConversationHistory(path, { offset: 6_000, limit: 10 });
  expect(after.messages).toEqual([]);
  expect(after.total).toBe(6_000);
}, 60_000);
