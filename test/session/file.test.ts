import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import fs from "node:fs";
import path from "node:path";
import type { AssistantMessage, UserMessage } from "../../src/model/types.ts";
import { removeStaleTempFiles, tempPathFor } from "../../src/base/atomic-file.ts";
import {
  appendCompactMarker,
  appendMessages,
  countMessageLines,
  createSessionFile,
  loadSessionFile,
  renameForTitle,
  rewriteMeta,
  SessionFileError,
} from "../../src/session/file.ts";
import { newSessionMeta, parseEntryLine, type SessionMeta } from "../../src/session/jsonl.ts";
import { nextSeq, sessionFileName } from "../../src/session/names.ts";
import { asStored, isInjected, message } from "./arbitrary.ts";
import { lines, tempDir } from "./tmp.ts";

const meta = (over: Partial<SessionMeta> = {}): SessionMeta => ({
  ...newSessionMeta("crab", "alice", new Date("2026-04-02T10:00:00Z")),
  ...over,
});

async function newFile(over: Partial<SessionMeta> = {}): Promise<string> {
  const file = path.join(tempDir(), "crab_alice_1.jsonl");
  await createSessionFile(file, meta(over));
  return file;
}

/** A size from /proc/self/status, in bytes. */
function vm(field: string): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(fs.readFileSync("/proc/self/status", "utf8"))?.[1]) * 1024;
}

async function loadError(file: string): Promise<SessionFileError> {
  try {
    await loadSessionFile(file);
  } catch (err) {
    if (err instanceof SessionFileError) return err;
    throw err;
  }
  throw new Error(`${file} loaded`);
}

const user = (content: string): UserMessage => ({ role: "user", content });
const assistant = (content: string): AssistantMessage => ({ role: "assistant", content });

describe("session files (docs/sessions.md)", () => {
  test("creating a session file produces an existing .jsonl file", async () => {
    const file = await newFile();
    expect(fs.existsSync(file)).toBe(true);
    expect(file.endsWith(".jsonl")).toBe(true);
  });

  test("a new session file holds exactly one line, the meta line, naming agent and created_by", async () => {
    const file = await newFile();
    const all = lines(file);
    expect(all).toHaveLength(1);
    expect(JSON.parse(all[0])).toMatchObject({ agent: "crab", created_by: "alice", title: "", uptime_secs: 0 });
  });

  test("appending two messages gives a file of three lines", async () => {
    const file = await newFile();
    await appendMessages(file, [user("hi"), assistant("hello")]);
    expect(lines(file)).toHaveLength(3);
  });

  test("auto-injected messages are never written", async () => {
    const file = await newFile();
    await appendMessages(file, [{ role: "user", content: "<memory>", injected: true }, user("real")]);
    expect(lines(file)).toHaveLength(2);
    expect(lines(file)[1]).toBe('{"role":"user","content":"real"}');
  });

  test("a file written with two messages loads back with agent, created_by and both messages", async () => {
    const file = await newFile();
    await appendMessages(file, [user("hi"), assistant("hello")]);
    const loaded = await loadSessionFile(file);
    expect(loaded.meta.agent).toBe("crab");
    expect(loaded.meta.created_by).toBe("alice");
    expect(loaded.messages).toEqual([user("hi"), assistant("hello")]);
  });

  test("after messages, a compact marker and one more message, loading yields the summary then the new message", async () => {
    const file = await newFile();
    await appendMessages(file, [user("a"), assistant("b")]);
    await appendCompactMarker(file, "the summary");
    await appendMessages(file, [user("next")]);
    expect((await loadSessionFile(file)).messages).toEqual([user("the summary"), user("next")]);
  });

  test('setting the title "My Chat" renames the file and the new name contains my-chat', async () => {
    const file = await newFile();
    const renamed = await renameForTitle(file, "My Chat");
    expect(path.basename(renamed)).toBe("crab_alice_1_my-chat.jsonl");
    expect(fs.existsSync(renamed)).toBe(true);
    expect(fs.existsSync(file)).toBe(false);
  });

  test("loading an empty file fails", async () => {
    const file = path.join(tempDir(), "crab_user_1.jsonl");
    fs.writeFileSync(file, "");
    const err = await loadError(file);
    expect(err.reason).toBe("invalid");
    expect(err.message).toContain(file);
  });

  test("loading a file whose first line is not valid JSON fails", async () => {
    const file = path.join(tempDir(), "crab_user_1.jsonl");
    fs.writeFileSync(file, 'not json\n{"role":"user","content":"hi"}\n');
    const err = await loadError(file);
    expect(err.reason).toBe("invalid");
    expect(err.message).toContain(file);
  });

  test("a corrupt line and a blank line after a valid message are skipped silently", async () => {
    const file = await newFile();
    await appendMessages(file, [user("valid")]);
    fs.appendFileSync(file, '{"role":"assis\n\n   \n');
    expect((await loadSessionFile(file)).messages).toEqual([user("valid")]);
  });

  test("loading a file that does not exist fails", async () => {
    const file = path.join(tempDir(), "crab_user_404.jsonl");
    const err = await loadError(file);
    expect(err.reason).toBe("missing");
    expect(err.message).toContain(file);
  });

  test("two sessions created one after the other for one identity get increasing seqs", async () => {
    const dir = tempDir();
    const names: string[] = [];
    for (let i = 0; i < 2; i++) {
      const name = sessionFileName("crab", "user", await nextSeq(dir, "crab", "user"));
      await createSessionFile(path.join(dir, name), newSessionMeta("crab", "user"));
      names.push(name);
    }
    expect(names).toEqual(["crab_user_1.jsonl", "crab_user_2.jsonl"]);
  });
});

describe("loading", () => {
  test("a torn last line loads every complete line", async () => {
    const file = await newFile();
    const msgs = [user("one"), assistant("two"), user("three")];
    await appendMessages(file, msgs);
    const full = fs.readFileSync(file);
    // Cut inside the last line at every position: all earlier lines still load.
    const lastStart = full.lastIndexOf("\n", full.length - 2) + 1;
    for (let cut = lastStart; cut < full.length - 1; cut++) {
      fs.writeFileSync(file, full.subarray(0, cut));
      expect((await loadSessionFile(file)).messages).toEqual(msgs.slice(0, 2));
    }
  });

  test("an append after a torn last line starts on a fresh line, so it survives", async () => {
    const file = await newFile();
    await appendMessages(file, [user("one")]);
    fs.appendFileSync(file, '{"role":"assistant","content":"half');
    await appendMessages(file, [user("after the crash")]);
    expect((await loadSessionFile(file)).messages).toEqual([user("one"), user("after the crash")]);
  });

  test("only the last compact marker counts; messages before it stay in the file", async () => {
    const file = await newFile();
    await appendMessages(file, [user("a")]);
    await appendCompactMarker(file, "first");
    await appendMessages(file, [user("b")]);
    await appendCompactMarker(file, "second", [assistant("c"), { role: "user", content: "x", injected: true }]);
    expect((await loadSessionFile(file)).messages).toEqual([user("second"), assistant("c")]);
    expect(await countMessageLines(file)).toBe(3);
  });

  test("a file with only a meta line loads with no messages and the meta's title and uptime", async () => {
    const file = await newFile({ title: "Hello", uptime_secs: 42 });
    expect(await loadSessionFile(file)).toEqual({ meta: meta({ title: "Hello", uptime_secs: 42 }), messages: [] });
  });

  test("a meta line without its newline (torn creation by another writer) still loads", async () => {
    const file = path.join(tempDir(), "crab_user_1.jsonl");
    fs.writeFileSync(file, '{"agent":"crab","created_by":"user","created_at":"t"}');
    expect((await loadSessionFile(file)).meta.agent).toBe("crab");
  });
});

describe("writing", () => {
  test("createSessionFile truncates an existing file of that name", async () => {
    const file = await newFile();
    await appendMessages(file, [user("old")]);
    await createSessionFile(file, meta());
    expect(lines(file)).toHaveLength(1);
  });

  test("appendMessages never creates a file (no meta-less files after a rename or delete)", async () => {
    const file = path.join(tempDir(), "crab_user_1.jsonl");
    await expect(appendMessages(file, [user("x")])).rejects.toThrow();
    expect(fs.existsSync(file)).toBe(false);
  });

  test("appending nothing persistable writes nothing", async () => {
    const file = await newFile();
    const before = fs.readFileSync(file, "utf8");
    await appendMessages(file, [
      { role: "user", content: "ctx", injected: true },
      { role: "system", content: "s" },
    ]);
    expect(fs.readFileSync(file, "utf8")).toBe(before);
  });

  test("concurrent appendMessages calls never interleave lines, and each call's lines stay together", async () => {
    const file = await newFile();
    const big = "x".repeat(300_000); // several pipe/page-sized chunks per line
    const calls = Array.from({ length: 40 }, (_, i) => [user(`u${i} ${big}`), assistant(`a${i} ${big}`)]);
    await Promise.all(calls.map((msgs) => appendMessages(file, msgs)));
    // 24 MB: past what a resume reads (RESUME_MAX_BYTES), so the whole file is asked for.
    const loaded = (await loadSessionFile(file, Number.MAX_SAFE_INTEGER)).messages;
    expect(loaded).toHaveLength(80);
    expect(lines(file)).toHaveLength(81);
    for (let i = 0; i < loaded.length; i += 2) {
      const n = loaded[i].content.split(" ")[0].slice(1);
      expect(loaded[i]).toEqual(user(`u${n} ${big}`));
      expect(loaded[i + 1]).toEqual(assistant(`a${n} ${big}`));
    }
    // Calls on one file land in call order.
    expect(loaded.filter((_, i) => i % 2 === 0).map((m) => m.content.split(" ")[0])).toEqual(calls.map((_, i) => `u${i}`));
  });

  test("appends racing a meta rewrite are never lost", async () => {
    const file = await newFile();
    const work: Promise<void>[] = [];
    for (let i = 0; i < 50; i++) {
      work.push(appendMessages(file, [user(`m${i}`)]));
      if (i % 5 === 0) work.push(rewriteMeta(file, meta({ uptime_secs: i })));
    }
    await Promise.all(work);
    const loaded = await loadSessionFile(file);
    expect(loaded.messages.map((m) => m.content)).toEqual(Array.from({ length: 50 }, (_, i) => `m${i}`));
    expect(loaded.meta.uptime_secs).toBe(45);
  });

  test("rewriteMeta replaces only the meta line and keeps created_at as given", async () => {
    const file = await newFile();
    await appendMessages(file, [user("a"), assistant("b")]);
    fs.appendFileSync(file, "{torn");
    const rest = fs.readFileSync(file, "utf8").split("\n").slice(1).join("\n");
    await rewriteMeta(file, meta({ title: "T", uptime_secs: 7 }));
    const text = fs.readFileSync(file, "utf8");
    expect(text.split("\n").slice(1).join("\n")).toBe(rest);
    const loaded = await loadSessionFile(file);
    expect(loaded.meta).toEqual(meta({ title: "T", uptime_secs: 7 }));
    expect(loaded.meta.created_at).toBe("2026-04-02T10:00:00Z");
    expect(loaded.messages).toEqual([user("a"), assistant("b")]);
  });

  test("appending a 12 MiB answer writes it in batches: the line is whole, the peak memory far below the answer's size", async () => {
    const file = await newFile();
    await appendMessages(file, [user("q")]);
    fs.appendFileSync(file, "{torn"); // the repair's newline goes first
    const answer: AssistantMessage = { role: "assistant", content: `${'é"'.repeat(6 * 1024 * 1024)}😀`, partial: "error" };
    expect(answer.content.indexOf("😀")).toBeGreaterThan(0); // flattened, as an answer in the history is
    Bun.gc(true);
    const rss = vm("VmRSS");
    fs.writeFileSync("/proc/self/clear_refs", "5"); // resets VmHWM to the current resident size
    await appendMessages(file, [answer]);
    const peakAbove = vm("VmHWM") - rss;
    // As one JSON string, one joined string and one buffer it cost over 100 MiB.
    expect(peakAbove).toBeLessThan(32 * 1024 * 1024);
    // Past what a resume reads (8 MiB): the lines are checked as they are on disk.
    const text = fs.readFileSync(file, "utf8").split("\n");
    expect(text).toHaveLength(5);
    expect(text[2]).toBe("{torn");
    expect(text[4]).toBe("");
    expect(parseEntryLine(text[3])).toEqual({ kind: "message", message: answer });
  });

  test("rewriteMeta of a 48 MiB file copies it a chunk at a time: every line kept, the peak memory far below the file's size", async () => {
    const file = await newFile();
    const line = `${JSON.stringify({ role: "user", content: "y".repeat(64 * 1024 - 40) })}\n`;
    const fd = fs.openSync(file, "a");
    for (let i = 0; i < 768; i++) fs.writeSync(fd, line);
    fs.closeSync(fd);
    const before = fs.statSync(file).size;
    Bun.gc(true);
    const rss = vm("VmRSS");
    fs.writeFileSync("/proc/self/clear_refs", "5"); // resets VmHWM to the current resident size
    await rewriteMeta(file, meta({ title: "Big", uptime_secs: 3 }));
    const peakAbove = vm("VmHWM") - rss;
    // Reading it whole and concatenating cost twice the file (96 MiB).
    expect(peakAbove).toBeLessThan(24 * 1024 * 1024);
    const header = `${JSON.stringify(meta({ title: "Big", uptime_secs: 3 }))}\n`;
    const oldHeader = `${JSON.stringify(meta())}\n`;
    expect(fs.statSync(file).size).toBe(before - oldHeader.length + header.length);
    const text = fs.readFileSync(file, "utf8");
    expect(text.startsWith(header)).toBe(true);
    expect(text.slice(header.length)).toBe(line.repeat(768));
  });

  test("rewriteMeta leaves no temp file behind and keeps the owner's bits of the file's mode, never group/other ones", async () => {
    const file = await newFile();
    fs.chmodSync(file, 0o640);
    await rewriteMeta(file, meta({ uptime_secs: 1 }));
    expect(fs.readdirSync(path.dirname(file))).toEqual([path.basename(file)]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    fs.chmodSync(file, 0o400);
    await rewriteMeta(file, meta({ uptime_secs: 2 }));
    expect(fs.statSync(file).mode & 0o777).toBe(0o400);
  });

  test("removeStaleTempFiles removes temp files of other processes only", async () => {
    const file = await newFile();
    const dir = path.dirname(file);
    const mine = tempPathFor(file);
    const stale = mine.replace(`.tmp-${process.pid}-`, `.tmp-${process.pid + 1}-`);
    fs.writeFileSync(mine, "in flight");
    fs.writeFileSync(stale, "left by a crash");
    fs.writeFileSync(path.join(dir, "notes.txt"), "not ours");
    expect(await removeStaleTempFiles(dir)).toEqual([path.basename(stale)]);
    expect(fs.readdirSync(dir).sort()).toEqual([path.basename(mine), path.basename(file), "notes.txt"].sort());
  });

  test("a new session file is private (0600)", async () => {
    const file = await newFile();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  test("a process killed in the middle of meta rewrites leaves the file loadable and complete", async () => {
    const file = await newFile();
    const msgs = Array.from({ length: 200 }, (_, i) => (i % 2 ? assistant(`answer ${i} ${"z".repeat(10_000)}`) : user(`q ${i}`)));
    await appendMessages(file, msgs);
    const fixture = path.join(import.meta.dir, "fixtures", "rewrite-loop.ts");
    let observed = 0;
    for (let round = 0; round < 8; round++) {
      const child = Bun.spawn([process.execPath, fixture, file], { stdout: "pipe", stderr: "inherit" });
      const reader = child.stdout.getReader();
      let out = "";
      while (!out.includes("ready")) {
        const { value, done } = await reader.read();
        if (done) throw new Error("rewrite loop exited early");
        out += new TextDecoder().decode(value);
      }
      // Readers during the rewrites never observe a partial file.
      for (let i = 0; i < 1 + round * 3; i++) {
        const seen = await loadSessionFile(file);
        expect(seen.messages).toHaveLength(200);
        observed++;
      }
      await Bun.sleep(Math.random() * 15); // land the kill anywhere in a rewrite
      child.kill("SIGKILL");
      await child.exited;
      const loaded = await loadSessionFile(file);
      expect(loaded.meta.created_at).toBe("2026-04-02T10:00:00Z");
      expect(loaded.meta.uptime_secs).toBeGreaterThan(0);
      expect(loaded.messages).toEqual(msgs);
      // A temp file a kill leaves behind is never taken for a session file, and is swept at start.
      for (const name of fs.readdirSync(path.dirname(file))) {
        if (name !== path.basename(file)) expect(name.endsWith(".jsonl")).toBe(false);
      }
      await removeStaleTempFiles(path.dirname(file));
      expect(fs.readdirSync(path.dirname(file))).toEqual([path.basename(file)]);
    }
    expect(observed).toBeGreaterThan(0);
  });

  test("renameForTitle keeps the content, and replaces an earlier title", async () => {
    const file = await newFile();
    await appendMessages(file, [user("hi")]);
    const before = fs.readFileSync(file, "utf8");
    const first = await renameForTitle(file, "First Title");
    expect(fs.readFileSync(first, "utf8")).toBe(before);
    const second = await renameForTitle(first, "Second!");
    expect(path.basename(second)).toBe("crab_alice_1_second.jsonl");
    expect(fs.readFileSync(second, "utf8")).toBe(before);
    expect(fs.readdirSync(path.dirname(file))).toEqual(["crab_alice_1_second.jsonl"]);
    // Appends after the rename go to the new path; the old one is not recreated.
    await expect(appendMessages(file, [user("lost?")])).rejects.toThrow();
    await appendMessages(second, [user("next")]);
    expect((await loadSessionFile(second)).messages).toEqual([user("hi"), user("next")]);
  });

  test("renameForTitle does nothing for an empty slug or an occupied target", async () => {
    const file = await newFile();
    expect(await renameForTitle(file, ":::")).toBe(file);
    expect(await renameForTitle(file, "")).toBe(file);
    const other = path.join(path.dirname(file), "crab_alice_1_taken.jsonl");
    fs.writeFileSync(other, "other conversation\n");
    expect(await renameForTitle(file, "Taken")).toBe(file);
    expect(fs.readFileSync(other, "utf8")).toBe("other conversation\n");
    expect(fs.existsSync(file)).toBe(true);
  });

  test("countMessageLines counts non-blank lines after the meta line without a compact marker", async () => {
    const file = await newFile();
    await appendMessages(file, [user("a"), assistant("b")]);
    await appendCompactMarker(file, "s");
    fs.appendFileSync(file, "\n\n");
    await appendMessages(file, [user("c")]);
    expect(await countMessageLines(file)).toBe(3);
  });
});

describe("property", () => {
  test("any message list written with appendMessages loads back equal (modulo injected/sender)", async () => {
    const dir = tempDir();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(message, { maxLength: 5 }), { maxLength: 6 }), async (batches) => {
        const file = path.join(dir, `crab_user_${++n}.jsonl`);
        await createSessionFile(file, meta());
        for (const batch of batches) await appendMessages(file, batch);
        const expected = batches
          .flat()
          .filter((m) => !isInjected(m))
          .map(asStored);
        expect((await loadSessionFile(file)).messages).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
