import { describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import { conversationHistory, conversationPage, dateLabel, listConversations } from "../../src/session/conversations.ts";
import { appendCompactMarker, appendMessages, createSessionFile, rewriteMeta } from "../../src/session/file.ts";
import { newSessionMeta } from "../../src/session/jsonl.ts";
import { tempDir } from "./tmp.ts";

const NOW = new Date(2026, 3, 2, 12, 0, 0); // local noon, 2 April 2026

async function session(dir: string, name: string, messages: number, mtime: Date, uptime = 0): Promise<string> {
  const file = path.join(dir, name);
  const meta = newSessionMeta(name.split("_")[0], "x");
  await createSessionFile(file, { ...meta, uptime_secs: uptime });
  await appendMessages(
    file,
    Array.from({ length: messages }, (_, i) => ({ role: i % 2 ? ("assistant" as const) : ("user" as const), content: `m${i}` })),
  );
  fs.utimesSync(file, mtime, mtime);
  return file;
}

const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000);

describe("listConversations (docs/sessions.md#listing-killing-deleting)", () => {
  async function fixture() {
    const dir = tempDir();
    await session(dir, "crab_user_1.jsonl", 2, hoursAgo(50), 11);
    await session(dir, "crab_user_2_deploy-plan.jsonl", 4, hoursAgo(1), 22);
    await session(dir, "crab_tg-42_1.jsonl", 1, hoursAgo(20));
    await session(dir, "helper_user_1.jsonl", 3, hoursAgo(2));
    fs.writeFileSync(path.join(dir, "crab_user.jsonl"), "{}\n"); // fewer than 3 parts
    fs.writeFileSync(path.join(dir, "crab_user_x.jsonl"), "{}\n"); // no seq
    fs.writeFileSync(path.join(dir, "notes.txt"), "not a session");
    fs.writeFileSync(path.join(dir, ".crab_user_1.jsonl.tmp-1-aaaaaaaaaaaa"), "temp");
    return dir;
  }

  test("no filters: every parseable .jsonl, newest mtime first, with all fields", async () => {
    const dir = await fixture();
    const all = await listConversations(dir, "", "", NOW);
    expect(all.map((c) => path.basename(c.filePath))).toEqual([
      "crab_user_2_deploy-plan.jsonl",
      "helper_user_1.jsonl",
      "crab_tg-42_1.jsonl",
      "crab_user_1.jsonl",
    ]);
    expect(all[0]).toEqual({
      agent: "crab",
      sender: "user",
      seq: 2,
      title: "deploy-plan",
      filePath: path.join(dir, "crab_user_2_deploy-plan.jsonl"),
      messageCount: 4,
      aliveSecs: 22,
      date: "Today",
    });
    expect(all[3]).toMatchObject({ seq: 1, title: "", messageCount: 2, aliveSecs: 11, date: "2026-03-31" });
  });

  test("agent only: files whose parsed agent matches", async () => {
    const dir = await fixture();
    const crab = await listConversations(dir, "crab", "", NOW);
    expect(crab.map((c) => c.agent)).toEqual(["crab", "crab", "crab"]);
    expect((await listConversations(dir, "helper", "", NOW)).map((c) => c.seq)).toEqual([1]);
    expect(await listConversations(dir, "cra", "", NOW)).toEqual([]);
  });

  test("agent and sender: names starting with {agent}_{sender slug}_", async () => {
    const dir = await fixture();
    expect((await listConversations(dir, "crab", "TG:42", NOW)).map((c) => path.basename(c.filePath))).toEqual(["crab_tg-42_1.jsonl"]);
    expect((await listConversations(dir, "crab", "user", NOW)).map((c) => c.seq)).toEqual([2, 1]);
  });

  test("a sender-only filter is ignored", async () => {
    const dir = await fixture();
    expect(await listConversations(dir, "", "tg:42", NOW)).toHaveLength(4);
  });

  test("message_count counts archived messages and skips markers; alive_secs is 0 for a bad meta line", async () => {
    const dir = tempDir();
    const file = await session(dir, "crab_user_1.jsonl", 2, NOW);
    await appendCompactMarker(file, "summary", [{ role: "user", content: "after" }]);
    const [c] = await listConversations(dir, "", "", NOW);
    expect(c.messageCount).toBe(3);
    fs.writeFileSync(path.join(dir, "crab_user_2.jsonl"), 'garbage\n{"role":"user"}\n');
    const bad = (await listConversations(dir, "", "", NOW)).find((x) => x.seq === 2);
    expect(bad).toMatchObject({ aliveSecs: 0, messageCount: 1 });
  });

  test("a missing sessions directory lists nothing", async () => {
    expect(await listConversations(path.join(tempDir(), "none"), "", "", NOW)).toEqual([]);
  });

  test("a rewrite moves a conversation to the top (mtime order)", async () => {
    const dir = await fixture();
    const old = path.join(dir, "crab_user_1.jsonl");
    await rewriteMeta(old, { ...newSessionMeta("crab", "user"), uptime_secs: 12 });
    const [top] = await listConversations(dir, "", "", new Date());
    expect(top.filePath).toBe(old);
    expect(top.aliveSecs).toBe(12);
  });
});

describe("listConversations while titles rename files", () => {
  test("a conversation renamed between the directory read and its scan is still listed, once", async () => {
    const dir = tempDir();
    for (let i = 1; i <= 12; i++) await session(dir, `crab_user_${i}.jsonl`, 2, hoursAgo(i));
    // A title arriving renames one file while a listing is under way, at a different moment each time.
    for (let i = 1; i <= 12; i++) {
      const listing = listConversations(dir, "", "", NOW);
      for (let k = 0; k < i; k++) await Bun.sleep(0);
      fs.renameSync(path.join(dir, `crab_user_${i}.jsonl`), path.join(dir, `crab_user_${i}_title-${i}.jsonl`));
      const listed = await listing;
      expect(listed.map((c) => c.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, k) => k + 1));
    }
  });
});

test("many conversations renamed during one listing (titles arriving together) are all listed, once each", async () => {
  const dir = tempDir();
  for (let i = 1; i <= 12; i++) await session(dir, `crab_u${i}_1.jsonl`, 2, hoursAgo(i));
  for (let round = 0; round < 5; round++) {
    const listing = listConversations(dir, "", "", NOW);
    // One rename per turn of the loop, while the listing reads and looks again.
    for (let i = 1; i <= 12; i++) {
      await Bun.sleep(0);
      const from = fs.readdirSync(dir).find((name) => name.startsWith(`crab_u${i}_1`))!;
      fs.renameSync(path.join(dir, from), path.join(dir, `crab_u${i}_1_title-${round}.jsonl`));
    }
    const listed = await listing;
    expect(listed.map((c) => c.sender).sort()).toEqual(Array.from({ length: 12 }, (_, k) => `u${k + 1}`).sort());
  }
});

describe("dateLabel", () => {
  test("Today, Yesterday, else YYYY-MM-DD in local time", () => {
    expect(dateLabel(new Date(2026, 3, 2, 0, 0, 1), NOW)).toBe("Today");
    expect(dateLabel(new Date(2026, 3, 2, 23, 59, 59), NOW)).toBe("Today");
    expect(dateLabel(new Date(2026, 3, 1, 23, 59, 59), NOW)).toBe("Yesterday");
    expect(dateLabel(new Date(2026, 3, 1, 0, 0, 0), NOW)).toBe("Yesterday");
    expect(dateLabel(new Date(2026, 2, 31, 23, 59, 59), NOW)).toBe("2026-03-31");
    expect(dateLabel(new Date(2025, 0, 5), NOW)).toBe("2025-01-05");
  });

  test("yesterday across a month and a year boundary", () => {
    expect(dateLabel(new Date(2025, 11, 31, 8), new Date(2026, 0, 1, 9))).toBe("Yesterday");
    expect(dateLabel(new Date(2026, 1, 28, 8), new Date(2026, 2, 1, 9))).toBe("Yesterday");
  });
});

describe("conversationHistory", () => {
  test("working context, user and assistant only, with meta title and agent", async () => {
    const dir = tempDir();
    const file = path.join(dir, "crab_user_1.jsonl");
    await createSessionFile(file, { ...newSessionMeta("crab", "user"), title: "Files" });
    await appendMessages(file, [
      { role: "user", content: "old" },
      { role: "assistant", content: "archived" },
    ]);
    await appendCompactMarker(file, "summary of old");
    await appendMessages(file, [
      { role: "user", content: "list files" },
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "bash", arguments: "{}" }] },
      { role: "tool", content: "a\n", toolCallId: "c1", name: "bash" },
      { role: "assistant", content: "One file: a." },
    ]);
    expect(await conversationHistory(file)).toEqual({
      title: "Files",
      agent: "crab",
      messages: [
        { role: "user", content: "summary of old" },
        { role: "user", content: "list files" },
        { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "bash", arguments: "{}", output: "a\n", isError: false }] },
        { role: "assistant", content: "One file: a." },
      ],
    });
  });

  test("a page carries each assistant message's tool calls with their results, failed ones marked, unsaved ones without output", async () => {
    const dir = tempDir();
    const file = path.join(dir, "crab_user_1.jsonl");
    await createSessionFile(file, newSessionMeta("crab", "user"));
    await appendMessages(file, [
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: "trying",
        toolCalls: [
          { id: "c1", name: "bash", arguments: '{"command":"ls"}' },
          { id: "c2", name: "nope", arguments: "{}" },
        ],
      },
      // Saved in finishing order; matched by id.
      { role: "tool", content: "tool not available: nope", toolCallId: "c2", name: "nope", isError: true },
      { role: "tool", content: "listing", toolCallId: "c1", name: "bash" },
      { role: "assistant", content: "", toolCalls: [{ id: "c3", name: "bash", arguments: "{}" }] },
      // The run ended before c3's result was saved.
      { role: "user", content: "again" },
    ]);
    const page = await conversationPage(file, 1, 2);
    expect(page).toMatchObject({ offset: 1, total: 4 });
    expect(page.messages).toEqual([
      {
        role: "assistant",
        content: "trying",
        toolCalls: [
          { id: "c1", name: "bash", arguments: '{"command":"ls"}', output: "listing", isError: false },
          { id: "c2", name: "nope", arguments: "{}", output: "tool not available: nope", isError: true },
        ],
      },
      { role: "assistant", content: "", toolCalls: [{ id: "c3", name: "bash", arguments: "{}", isError: false }] },
    ]);
    // The result of a message before the page is not attached to anything on it.
    expect((await conversationPage(file, 2, 5)).messages[0].toolCalls).toEqual([{ id: "c3", name: "bash", arguments: "{}", isError: false }]);
    expect(fs.readFileSync(file, "utf8")).toContain('"tool_call_id":"c2","is_error":true}');
  });

  test("a missing file fails", async () => {
    await expect(conversationHistory(path.join(tempDir(), "crab_user_1.jsonl"))).rejects.toThrow("does not exist");
  });
});
