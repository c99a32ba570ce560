// sessions, kill, conversations, history and agents against a real daemon.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { startFakeSetup, type FakeSetup } from "./fake-setup.ts";

let s: FakeSetup;
let sessionId: number;

beforeAll(async () => {
  s = await startFakeSetup();
  s.fake.script({ text: "first answer" }, { text: "second answer" });
  for (const msg of ["first question", "second question"]) {
    const r = await s.cli(["send", "--json", "--sender", "carol", msg]);
    expect(r.code).toBe(0);
    sessionId = JSON.parse(r.stdout.split("\n")[0]).session;
  }
});

afterAll(async () => {
  await s.stop();
});

describe("sessions and kill", () => {
  test("sessions prints a table and --json the same data", async () => {
    const json = await s.cli(["sessions", "--json"]);
    expect(json.code).toBe(0);
    const list = JSON.parse(json.stdout) as Record<string, unknown>[];
    const mine = list.find((x) => x.id === sessionId);
    expect(mine).toMatchObject({ agent: "crab", created_by: "carol", active: false, alive_secs: expect.any(Number) });
    expect(mine?.message_count).toBeGreaterThanOrEqual(4);

    const table = await s.cli(["sessions"]);
    expect(table.code).toBe(0);
    const [header, ...rows] = table.stdout.trimEnd().split("\n");
    expect(header.split(/\s+/)).toEqual(["ID", "AGENT", "CREATED_BY", "MESSAGES", "ALIVE", "ACTIVE", "TITLE"]);
    const row = rows.find((l) => l.startsWith(`${sessionId} `));
    expect(row?.split(/\s+/).slice(0, 3)).toEqual([String(sessionId), "crab", "carol"]);
    expect(row).toMatch(/\bno\b/);
  });

  test("kill closes the session, leaves its file, and a second kill is a 404", async () => {
    const id = JSON.parse((await s.cli(["send", "--json", "--sender", "dave", "hi"])).stdout.split("\n")[0]).session;
    const killed = await s.cli(["kill", String(id)]);
    expect(killed.code).toBe(0);
    expect(killed.stdout).toBe(`killed session ${id}\n`);
    const ids = (JSON.parse((await s.cli(["sessions", "--json"])).stdout) as { id: number }[]).map((x) => x.id);
    expect(ids).not.toContain(id);
    expect(s.sessionFiles("crab_dave_")).toHaveLength(1);

    const again = await s.cli(["kill", String(id)]);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`crabtalk: session ${id} not found\n`);
    const bad = await s.cli(["kill", "abc"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("a session id is a whole number");
  });
});

describe("conversations and history", () => {
  test("conversations lists files, filtered by agent and sender; --json has full paths", async () => {
    const json = await s.cli(["conversations", "--json", "--agent", "crab", "--sender", "carol"]);
    expect(json.code).toBe(0);
    const list = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ agent: "crab", sender: "carol", seq: 1, message_count: 4, date: "Today" });
    expect(existsSync(String(list[0].file_path))).toBe(true);

    const table = await s.cli(["conversations"]);
    expect(table.code).toBe(0);
    const [header, ...rows] = table.stdout.trimEnd().split("\n");
    expect(header.split(/\s+/)).toEqual(["DATE", "AGENT", "SENDER", "SEQ", "MESSAGES", "FILE"]);
    expect(rows.some((r) => r.includes(basename(String(list[0].file_path))))).toBe(true);
    expect(rows.some((r) => /\bdave\b/.test(r))).toBe(true);

    const none = await s.cli(["conversations", "--agent", "nobody"]);
    expect(none.stdout).toBe("no conversations\n");
    const senderOnly = await s.cli(["conversations", "--sender", "carol"]);
    expect(senderOnly.code).toBe(1);
    expect(senderOnly.stderr).toContain("--sender filters only together with --agent");
  });

  test("history prints role: content lines, by file name or full path; --json too", async () => {
    const [conv] = JSON.parse((await s.cli(["conversations", "--json", "--agent", "crab", "--sender", "carol"])).stdout);
    const expected = "user: first question\nassistant: first answer\nuser: second question\nassistant: second answer\n";
    const byName = await s.cli(["history", basename(conv.file_path)]);
    expect(byName.code).toBe(0);
    expect(byName.stdout).toBe(expected);
    const byPath = await s.cli(["history", conv.file_path]);
    expect(byPath.stdout).toBe(expected);

    const json = await s.cli(["history", "--json", conv.file_path]);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.agent).toBe("crab");
    expect(parsed.messages).toEqual([
      { role: "user", content: "first question" },
      { role: "assistant", content: "first answer" },
      { role: "user", content: "second question" },
      { role: "assistant", content: "second answer" },
    ]);
  });

  test("history of a missing file or one outside sessions/ fails with the daemon's message", async () => {
    const missing = await s.cli(["history", "crab_nobody_1.jsonl"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe("crabtalk: session file <home>/sessions/crab_nobody_1.jsonl does not exist\n");
    const outside = await s.cli(["history", join(s.daemon.home, "config.toml")]);
    expect(outside.code).toBe(1);
    expect(outside.stderr).toMatch(/^crabtalk: [^\n]*config\.toml[^\n]*\n$/);
    expect(outside.stderr).not.toContain("(error");
  });

  test("send --resume continues a conversation file by name", async () => {
    const [conv] = JSON.parse((await s.cli(["conversations", "--json", "--agent", "crab", "--sender", "dave"])).stdout);
    const r = await s.cli(["send", "--resume", basename(conv.file_path), "back again"]);
    expect(r.code).toBe(0);
    const files = s.sessionFiles("crab_dave_");
    expect(files).toHaveLength(1);
    expect(files[0].messages.map((m) => m.content)).toEqual(["hi", "ok", "back again", "ok"]);
  });
});

describe("agents", () => {
  test("create, list, show, update and delete round-trip through the daemon", async () => {
    const created = await s.cli(["agents", "create", "scout", "--description", "finds things", "--max-iterations", "5"]);
    expect(created.code).toBe(0);
    expect(created.stdout).toBe("created agent scout\n");
    const manifest = readFileSync(join(s.daemon.home, "local/CrabTalk.toml"), "utf8");
    expect(manifest).toContain("[agents.scout]");

    const list = await s.cli(["agents", "list"]);
    expect(list.stdout).toMatch(/^scout\s+\(active\)\s+5\s+no\s+finds things$/m);
    expect(list.stdout).toMatch(/^crab\s+fake-model\s+/m);
    const listJson = JSON.parse((await s.cli(["agents", "list", "--json"])).stdout) as { name: string }[];
    expect(listJson.map((a) => a.name)).toEqual(["crab", "scout"]);

    const show = await s.cli(["agents", "show", "scout"]);
    expect(show.stdout).toContain("description:          finds things");
    expect(show.stdout).toContain("max_iterations:       5");

    // Flags only: the other settings are kept.
    const updated = await s.cli(["agents", "update", "scout", "--thinking", "--model", "fake-model"]);
    expect(updated.code).toBe(0);
    expect(JSON.parse((await s.cli(["agents", "show", "--json", "scout"])).stdout)).toMatchObject({
      name: "scout",
      description: "finds things",
      max_iterations: 5,
      thinking: true,
      model: "fake-model",
    });

    // --json replaces the whole config.
    const replaced = await s.cli(["agents", "update", "scout", "--json", '{"description": "new role"}']);
    expect(replaced.code).toBe(0);
    const after = JSON.parse((await s.cli(["agents", "show", "--json", "scout"])).stdout);
    expect(after.description).toBe("new role");
    expect(after.thinking).toBe(false);
    expect(after.model).toBeUndefined();

    const fromStdin = await s.cli(["agents", "update", "scout", "--file", "-"], '{"description": "from stdin"}');
    expect(fromStdin.code).toBe(0);
    expect(JSON.parse((await s.cli(["agents", "show", "--json", "scout"])).stdout).description).toBe("from stdin");

    const deleted = await s.cli(["agents", "delete", "scout"]);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toBe("deleted agent scout\n");
    expect(readFileSync(join(s.daemon.home, "local/CrabTalk.toml"), "utf8")).not.toContain("[agents.scout]");
    const again = await s.cli(["agents", "delete", "scout"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe("crabtalk: agent 'scout' not found\n");
  });

  test("bad input is refused: duplicate, invalid name, invalid JSON, unknown agent", async () => {
    expect((await s.cli(["agents", "create", "dup"])).code).toBe(0);
    const dup = await s.cli(["agents", "create", "dup"]);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toBe("crabtalk: agent 'dup' already exists in the local manifest\n");
    const badName = await s.cli(["agents", "create", "bad/name"]);
    expect(badName.code).toBe(1);
    expect(badName.stderr).toMatch(/^crabtalk: [^\n]*bad\/name[^\n]*\n$/);
    expect(badName.stderr).not.toContain("(error");
    const badJson = await s.cli(["agents", "create", "other", "--json", "{nope"]);
    expect(badJson.code).toBe(1);
    expect(badJson.stderr).toContain("agent config is not valid JSON");
    const unknown = await s.cli(["agents", "show", "ghost"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe("crabtalk: agent 'ghost' not registered\n");
  });
});
