// What a hostile model writes reaches a terminal shown, not obeyed
// (docs/security.md#what-reaches-your-terminal): its escape sequences would
// otherwise set the window title, clear the screen or (OSC 52) fill the
// clipboard. A pipe still gets the answer's bytes as they came.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { questionLines } from "../../src/cli/ask/answer.ts";
import { eventLine } from "../../src/cli/commands/events.ts";
import { AgentEventKind } from "../../src/protocol/gen/crabtalk_pb.ts";
import { terminalSafe } from "../../src/cli/stream/terminal-safe.ts";
import { formatTable, oneLine } from "../../src/cli/table.ts";
import { runCli } from "../support/cli.ts";
import { until } from "../support/until.ts";
import { MAIN } from "../support/daemon.ts";
import { spawnPty } from "../support/pty-process.ts";
import { startFakeSetup, type FakeSetup } from "./fake-setup.ts";

setDefaultTimeout(30_000);

let s: FakeSetup;
beforeAll(async () => {
  s = await startFakeSetup();
});
afterAll(() => s.stop());

const TITLE = "\u001b]0;pwned\u0007";
const CLIPBOARD = "\u001b]52;c;cm0gLXJmIH4=\u0007";
const CLEAR = "\u001b[2J";
const HOSTILE = `before ${TITLE}${CLIPBOARD}${CLEAR}over\rwritten after`;
/** Any escape or other control character but the newline the terminal view ends lines with. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe("terminalSafe", () => {
  test("control characters are written out; newlines and tabs stay; carriage returns go", () => {
    expect(terminalSafe(`a${TITLE}b\tc\r\nd\u009b2J`)).toBe("a\\u001b]0;pwned\\u0007b\tc\nd\\u009b2J");
    expect(terminalSafe("plain text ünïcödé")).toBe("plain text ünïcödé");
  });

  test("tables and one-line summaries (titles, memory descriptions, search snippets) are shown escaped", () => {
    expect(formatTable(["NAME", "TITLE"], [[`n${CLEAR}`, `t${TITLE}`]])).toBe("NAME        TITLE\nn\\u001b[2J  t\\u001b]0;pwned\\u0007");
    expect(oneLine(`a\r\nb${CLIPBOARD}`, 100)).toBe("a b\\u001b]52;c;cm0gLXJmIH4=\\u0007");
  });

  test("an event line (crabtalk events) shows a delta's escape sequences as text", () => {
    const line = eventLine({ agent: "crab", kind: AgentEventKind.TEXT_DELTA, content: `x${TITLE}y`, session: 1n } as never);
    expect(line).not.toMatch(CONTROL);
    expect(line).toContain("x\\u001b]0;pwned\\u0007y");
  });

  test("an ask_user question's every part is shown escaped", () => {
    const lines = questionLines(
      { question: `q${CLEAR}`, header: `h${TITLE}`, multiSelect: false, options: [{ label: `l${CLEAR}`, description: `d${CLIPBOARD}` }] } as never,
      0,
      1,
    );
    expect(lines.join("\n")).not.toMatch(CONTROL);
    expect(lines.join("\n")).toContain("\\u001b[2J");
  });
});

test("send at a terminal shows the model's escape sequences and its tool call's as text", async () => {
  s.fake.script({ toolCalls: [{ id: "t1", name: "bash", arguments: JSON.stringify({ command: `echo hi # ${TITLE}` }) }] }, { text: `${HOSTILE} done` });
  const t = spawnPty(
    [process.execPath, MAIN, "send", "--sender", "hostile-tty", "hi"],
    { ...process.env, CRABTALK_HOME: s.daemon.home, NO_COLOR: "1", TERM: "xterm" },
    { cols: 200, rows: 40 },
  );
  try {
    await t.waitFor("done");
    expect(await t.exited).toBe(0);
    const raw = t.raw();
    expect(raw).not.toContain("\u001b]");
    expect(raw).not.toContain(CLEAR);
    expect(raw).not.toContain("\u0007");
    expect(raw).toContain("before \\u001b]0;pwned\\u0007\\u001b]52;c;cm0gLXJmIH4=\\u0007\\u001b[2Joverwritten after done");
    expect(raw).toContain("echo hi # \\u001b]0;pwned\\u0007");
  } finally {
    t.kill();
  }
});

test("send into a pipe passes the answer's bytes on as they came", async () => {
  s.fake.script({ text: HOSTILE });
  const r = await runCli(["send", "--sender", "hostile-pipe", "hi"], { home: s.daemon.home });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe(`${HOSTILE}\n`);
});

test("history at a terminal shows a stored answer's escape sequences as text; into a pipe as they came", async () => {
  s.fake.script({ text: `${HOSTILE} stored` });
  expect((await runCli(["send", "--sender", "hostile-history", "hi"], { home: s.daemon.home })).code).toBe(0);
  // Once titled, the file keeps its name (a title renames it).
  const file = await until(
    async () => {
      const list = await runCli(["conversations", "--json"], { home: s.daemon.home });
      const entry = (JSON.parse(list.stdout) as { file_path: string; sender: string; title: string }[]).find((c) => c.sender === "hostile-history");
      return entry?.title ? entry.file_path : undefined;
    },
    { what: "the conversation to get its title" },
  );
  const piped = await runCli(["history", file], { home: s.daemon.home });
  expect(piped.stdout).toContain(`assistant: ${HOSTILE} stored`);
  const t = spawnPty(
    [process.execPath, MAIN, "history", file],
    { ...process.env, CRABTALK_HOME: s.daemon.home, NO_COLOR: "1", TERM: "xterm" },
    { cols: 200, rows: 40 },
  );
  try {
    await t.waitFor("stored");
    expect(await t.exited).toBe(0);
    expect(t.raw()).not.toContain("\u001b]");
    expect(t.raw()).toContain("assistant: before \\u001b]0;pwned\\u0007");
  } finally {
    t.kill();
  }
});
