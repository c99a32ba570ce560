// `crabtalk events` prints every agent event live, one line each (or JSON).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { MAIN } from "../support/daemon.ts";
import { until } from "../support/until.ts";
import { startFakeSetup, type FakeSetup } from "./fake-setup.ts";

let setup: FakeSetup;
beforeAll(async () => {
  setup = await startFakeSetup();
});
afterAll(async () => {
  await setup.stop();
});

/**
 * Runs `crabtalk events ARGS` and `during` once it is subscribed; returns the
 * lines printed for `during` until `done` holds. The daemon does not confirm
 * a subscription, so probe runs are sent until one shows up in the output.
 */
async function watch(args: string[], done: (lines: string[]) => boolean, during: () => Promise<void>): Promise<string[]> {
  const proc = Bun.spawn([process.execPath, MAIN, "events", ...args], {
    env: { ...process.env, CRABTALK_HOME: setup.daemon.home, NO_COLOR: "1" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const lines: string[] = [];
  let from = Infinity; // where `during`'s lines start: nothing counts before the probe is seen
  const reader = (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of proc.stdout) {
      buffer += decoder.decode(chunk);
      const parts = buffer.split("\n");
      buffer = parts.pop()!;
      lines.push(...parts);
      if (done(lines.slice(from))) break;
    }
  })();
  // A probe run in a new session of its own; its done line names that session.
  const probe = async (): Promise<number> => {
    const sent = await setup.cli(["send", "--json", "--new", "--sender", "probe", "probe"]);
    expect(sent.code).toBe(0);
    return JSON.parse(sent.stdout.split("\n")[0]).session;
  };
  const doneOf = (session: number) =>
    lines.some((l) => (l.includes('"kind":"done"') && l.includes(`"session":${session}`)) || (l.includes(" done ") && l.endsWith(`(session ${session})`)));
  try {
    let last = 0;
    await until(
      async () => {
        last = await probe();
        return doneOf(last) || undefined;
      },
      { what: "crabtalk events to print a probe run's done line (subscribed)", timeoutMs: 20_000 },
    ).catch(async (err) => {
      // The last probe may have been printed a moment after its check.
      if (!doneOf(last)) throw err;
    });
    // One subscription delivers events in order: earlier probes' lines all came before this one.
    from = lines.length;
    await during();
    await until(() => done(lines.slice(from)), { what: "the events of the run under test", timeoutMs: 20_000 });
  } finally {
    proc.kill();
    await proc.exited;
  }
  await reader.catch(() => {});
  return lines.slice(from);
}

test("--json prints one object per event, tagged with agent and session", async () => {
  const lines = await watch(
    ["--json"],
    (l) => l.some((x) => x.includes('"kind":"done"')),
    async () => {
      setup.fake.script({ toolCalls: [{ id: "t1", name: "bash", arguments: JSON.stringify({ command: "echo watched" }) }] }, { text: "all seen" });
      expect((await setup.cli(["send", "--sender", "watched", "go"])).code).toBe(0);
    },
  );
  const events = lines.map((l) => JSON.parse(l));
  expect(events.every((e) => e.agent === "crab" && typeof e.session === "number" && e.session > 0)).toBe(true);
  const kinds = events.map((e) => e.kind);
  expect(kinds).toEqual(expect.arrayContaining(["tool_start", "tool_result", "tools_complete", "text_delta", "done"]));
  expect(events.find((e) => e.kind === "tool_start").tool_calls[0].name).toBe("bash");
  expect(JSON.parse(events.find((e) => e.kind === "tool_result").tool_output).stdout).toBe("watched\n");
  expect(
    events
      .filter((e) => e.kind === "text_delta")
      .map((e) => e.content)
      .join(""),
  ).toBe("all seen");
});

test("plain mode gathers text deltas into lines and prints a readable line per other event", async () => {
  const lines = await watch(
    [],
    (l) => l.some((x) => x.includes(" done ")),
    async () => {
      setup.fake.script({ text: "plain words here\nand a second line" });
      expect((await setup.cli(["send", "--sender", "plain", "hello"])).code).toBe(0);
    },
  );
  const text = lines.filter((l) => l.startsWith("[crab] text"));
  expect(text.map((l) => l.replace(/ \(session \d+\)$/, ""))).toEqual(["[crab] text plain words here", "[crab] text and a second line"]);
  expect(lines.some((l) => /^\[crab\] done fake-model \d+ in \/ \d+ out \(session \d+\)$/.test(l))).toBe(true);
});
