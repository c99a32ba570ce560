// A conversation title the model answers with a paragraph becomes one short
// line: what `crabtalk sessions` and the session file show (real CLI and daemon).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFakeSetup, type FakeSetup } from "./fake-setup.ts";

let s: FakeSetup;
beforeAll(async () => {
  s = await startFakeSetup();
});
afterAll(() => s.stop());

test("a multi-line, long title answer is reduced to its first line, at most 80 characters", async () => {
  const long = "Planning a very long journey across the northern mountains and the southern seas with friends";
  s.fake.title(`**${long}**\n\nI picked this title because the user talks about travelling.\nIt covers both parts.`);
  expect((await s.cli(["send", "--sender", "titled", "let us plan a trip"])).code).toBe(0);
  let title = "";
  const deadline = Date.now() + 15_000;
  while (!title) {
    const sessions: { created_by: string; title: string }[] = JSON.parse((await s.cli(["sessions", "--json"])).stdout);
    title = sessions.find((x) => x.created_by === "titled")?.title ?? "";
    if (!title && Date.now() > deadline) throw new Error("no title for the session within 15 s");
    if (!title) await Bun.sleep(50);
  }
  expect(title).toBe("Planning a very long journey across the northern mountains and the southern");
  expect(title.length).toBeLessThanOrEqual(80);
  const [file] = s.sessionFiles("crab_titled_");
  expect(file.meta.title).toBe(title);
  expect(file.name).not.toContain("\n");
}, 30_000);
