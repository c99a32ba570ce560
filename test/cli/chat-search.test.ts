// `crabtalk chat` in a pipe: /search, /resume (by number, from the picker,
// by file) and the usage line after each answer, against a real daemon.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFakeSetup, type FakeSetup } from "./fake-setup.ts";

let s: FakeSetup;

beforeAll(async () => {
  s = await startFakeSetup();
  s.fake.script({ text: "pelicans eat fish" }, { text: "unrelated answer" });
  await s.cli(["send", "--sender", "birds", "--new", "what does the pelicanfeed contain?"]);
  await s.cli(["send", "--sender", "birds", "--new", "something else entirely"]);
});

afterAll(async () => {
  await s.stop();
});

const userMessages = (prefix: string) => s.sessionFiles(prefix).map((f) => f.messages.filter((m) => m.role === "user").map((m) => m.content));

test("/search lists the matching conversation and /resume N continues it", async () => {
  s.fake.script({ text: "still pelicans" });
  const r = await s.cli(["chat", "--sender", "birds"], "/search pelicanfeed\n/resume 1\nand what else?\n");
  expect(r.code).toBe(0);
  expect(r.stderr).toMatch(/^1\. crab_birds_1\S*\.jsonl {2}Today/m);
  expect(r.stderr).toContain("  > user: what does the pelicanfeed contain?");
  expect(r.stderr).toMatch(/the next message continues crab_birds_1\S* with crab/);
  expect(r.stdout).toBe("still pelicans\n");
  expect(userMessages("crab_birds_1")[0]).toEqual(["what does the pelicanfeed contain?", "and what else?"]);
});

test("/resume without an argument lists conversations and takes the next line as the choice", async () => {
  const list = JSON.parse((await s.cli(["conversations", "--json"])).stdout) as { file_path: string }[];
  const second = list.findIndex((c) => /crab_birds_2/.test(c.file_path)) + 1;
  s.fake.script({ text: "back in two" });
  const r = await s.cli(["chat", "--sender", "birds"], `/resume\n${second}\nhello again\n`);
  expect(r.code).toBe(0);
  expect(r.stderr).toMatch(/^#\s+DATE\s+AGENT\s+MESSAGES\s+FILE$/m);
  expect(r.stdout).toBe("back in two\n");
  expect(userMessages("crab_birds_2")[0]).toEqual(["something else entirely", "hello again"]);
});

test("/resume refuses what is not on the list; an empty choice cancels", async () => {
  const r = await s.cli(["chat", "--sender", "birds"], "/resume 1\n/resume\n\n/resume 99\n/resume ../../etc/passwd\n");
  expect(r.stderr).toContain("nothing to pick from: /resume or /search first");
  expect(r.stderr).toContain("pick a number from 1 to");
  expect(r.stderr).toContain("resume cancelled");
  expect(r.stderr).toContain("is not a .jsonl file inside the sessions directory");
  expect(r.stdout).toBe("");
});

test("--no-usage and /usage off stop the usage line; it is on by default", async () => {
  s.fake.script({ text: "one" }, { text: "two" }, { text: "three" });
  const quiet = await s.cli(["chat", "--no-usage", "--sender", "quiet"], "hi\n");
  expect(quiet.stderr).toBe("");
  const toggled = await s.cli(["chat", "--sender", "quiet"], "hi\n/usage off\nhi again\n");
  expect(toggled.stderr).toBe("10 in · 5 out · no price\nusage after each answer: off\n");
});
