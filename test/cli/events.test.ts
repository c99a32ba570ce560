// `crabtalk events` prints every agent event live, one line each (or JSON).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { MAIN } from "../support/daemon.ts";
import { startFakeSetup, type FakeSetup } from "./fake-setup.ts";

let setup: FakeSetup;
beforeAll(async () => {
  setup = await startFakeSetup();
});
afterAll(async () => {
  await setup.stop();
});

async function watch(args: string[], until: (lines: string[]) => boolean, during: () => Promise<void>): Promise<string[]> {
  const proc = Bun.spawn([process.execPath, MAIN, "events", ...args], {
    env: { ...process.env, CRABTALK_HOME: setup.daemon.home, NO_COLOR: "1" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const lines: string[] = [];
  const reader = (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of proc.stdout) {
      buffer += decoder.decode(chunk);
      const parts = buffer.split("\n");
      buffer = parts.pop()!;
      lines.push(...parts);
      if (until(lines)) break;
    }
  })();
  await Bun.sleep(300); // subscribed before the run starts
  await during();
  await Promise.race([reader, Bun.sleep(10_000)]);
  proc.kill();
  await proc.exited;
  return lines;
}

test("--json prints one object per event, tagged with agent and session", async () => {
  setup.fake.script({ toolCalls: [{ id: "t1", name: "bash", arguments: JSON.stringify({ command: "echo watched" }) }] }, { text: "all seen" });
  const lines = await watch(["--json"], (l) => l.some((x) => x.includes('"kind":"done"')), async () => {
    expect((await setup.cli(["send", "--sender", "watched", "go"])).code).toBe(0);
  });
  const events = lines.map((l) => JSON.parse(l));
  expect(events.every((e) => e.agent === "crab" && typeof e.session === "number" && e.session > 0)).toBe(true);
  const kinds = events.map((e) => e.kind);
  expect(kinds).toEqual(expect.arrayContaining(["tool_start", "tool_result", "tools_complete", "text_delta", "done"]));
  expect(events.find((e) => e.kind === "tool_start").tool_calls[0].name).toBe("bash");
  expect(JSON.parse(events.find((e) => e.kind === "tool_result").tool_output).stdout).toBe("watched\n");
  expect(events.filter((e) => e.kind === "text_delta").map((e) => e.content).join("")).toBe("all seen");
});

test("plain mode gathers text deltas into lines and prints a readable line per other event", async () => {
  setup.fake.script({ text: "plain words here\nand a second line" });
  const lines = await watch([], (l) => l.some((x) => x.includes(" done ")), async () => {
    expect((await setup.cli(["send", "--sender", "plain", "hello"])).code).toBe(0);
  });
  const text = lines.filter((l) => l.startsWith("[crab] text"));
  expect(text.map((l) => l.replace(/ \(session \d+\)$/, ""))).toEqual(["[crab] text plain words here", "[crab] text and a second line"]);
  expect(lines.some((l) => /^\[crab\] done fake-model \d+ in \/ \d+ out \(session \d+\)$/.test(l))).toBe(true);
});
