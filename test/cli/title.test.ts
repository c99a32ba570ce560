// A conversation title the model answers with a paragraph becomes one short
// line: what `crabtalk sessions` and the session file show (real CLI and daemon).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { until } from "../support/until.ts";
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
  const title = await until(
    async () => {
      const sessions: { created_by: string; title: string }[] = JSON.parse((await s.cli(["sessions", "--json"])).stdout);
      return sessions.find((x) => x.created_by === "titled")?.title || undefined;
    },
    { what: "the session's title", timeoutMs: 15_000 },
  );
  expect(title).toBe("Planning a very long journey across the northern mountains and the southern");
  expect(title.length).toBeLessThanOrEqual(80);
  // The session gets its title first, then the file's meta line and name: wait for those too.
  const file = await until(() => s.sessionFiles("crab_titled_").find((f) => f.meta.title !== ""), { what: "the title in the session file", timeoutMs: 15_000 });
  expect(file.meta.title).toBe(title);
  expect(file.name).not.toContain("\n");
}, 30_000);
