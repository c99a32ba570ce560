// Answers at a terminal (a real pseudo-terminal) against the real daemon:
// streamed word by word as they arrive, not held until a line ends; wrapped
// at word boundaries to the terminal's width; Ctrl-L clears chat's screen.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { MAIN } from "../support/daemon.ts";
import { spawnPty, type PtyProcess } from "../support/pty-process.ts";
import { startFakeSetup, type FakeSetup } from "./fake-setup.ts";

setDefaultTimeout(30_000);

let s: FakeSetup;
beforeAll(async () => {
  s = await startFakeSetup();
});
afterAll(() => s.stop());

const atTerminal = (args: string[], cols = 120): PtyProcess =>
  spawnPty([process.execPath, MAIN, ...args], { ...process.env, CRABTALK_HOME: s.daemon.home, NO_COLOR: "1", TERM: "xterm" }, { cols, rows: 40 });

/** One long line, sent a word at a time with a pause between words; the fake holds it after "charlie " until released. */
const SLOW_LINE = { text: "alpha bravo charlie delta echo foxtrot golf hotel india juliet", holdAfterChunks: 4, chunkDelayMs: 5 };

test("chat shows an answer's first words while its line is still streaming", async () => {
  const t = atTerminal(["chat", "--sender", "slow-chat"]);
  try {
    const at = await t.waitFor("› ");
    s.fake.script(SLOW_LINE);
    t.type("tell me\r");
    await t.waitFor("alpha bravo charlie", at);
    // The model has not sent the rest yet: what is on the screen came before the line's end.
    expect(t.screen().slice(at)).not.toContain("delta");
    s.fake.release();
    await t.waitFor("alpha bravo charlie delta echo foxtrot golf hotel india juliet\n", at);
  } finally {
    t.kill();
  }
});

test("send at a terminal streams word by word too, and an argument does not wait on the terminal's input", async () => {
  s.fake.script(SLOW_LINE);
  const t = atTerminal(["send", "--sender", "slow-send", "tell me"]);
  try {
    await t.waitFor("alpha bravo charlie");
    expect(t.screen()).not.toContain("delta");
    s.fake.release();
    await t.waitFor("india juliet\n");
    expect(await t.exited).toBe(0);
  } finally {
    t.kill();
  }
});

test("a long answer wraps at word boundaries to the terminal's width, with a list item's indent kept", async () => {
  const words = "a sentence of words with different lengths: supercalifragilistic, tiny, medium-sized and extraordinarily long ones, all wrapped";
  s.fake.script({ text: `${words}\n- ${words}\ndone` });
  const t = atTerminal(["send", "--sender", "wrap", "wrap it"], 32);
  try {
    const end = await t.waitFor("done\n");
    const rows = t.screen().slice(0, end).trimEnd().split("\n");
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(32);
    const item = rows.findIndex((r) => r.startsWith("• "));
    expect(item).toBeGreaterThan(1);
    // Rows joined with a space give the words back: no word was cut between two rows.
    expect(rows.slice(0, item).join(" ")).toBe(words);
    const itemRows = rows.slice(item, -1);
    expect(itemRows.slice(1).every((r) => r.startsWith("  ") && !r.startsWith("   "))).toBe(true);
    expect(itemRows.map((r) => r.slice(2)).join(" ")).toBe(words);
    expect(await t.exited).toBe(0);
  } finally {
    t.kill();
  }
});

test("Ctrl-L clears chat's screen and draws the prompt again", async () => {
  const t = atTerminal(["chat", "--sender", "clear"]);
  try {
    let at = await t.waitFor("› ");
    s.fake.script({ text: "something to clear away" });
    t.type("hello\r");
    at = await t.waitFor("something to clear away", at);
    at = await t.waitFor("› ", at);
    const before = t.raw().length;
    t.type("\x0c");
    for (let i = 0; !/\x1b\[(1;1)?H\x1b\[0?J|\x1b\[2J/.test(t.raw().slice(before)); i++) {
      if (i > 500) throw new Error(`Ctrl-L never cleared the screen; it wrote ${JSON.stringify(t.raw().slice(before))}`);
      await Bun.sleep(20);
    }
    await t.waitFor("› ", at);
  } finally {
    t.kill();
  }
});

test("Ctrl-L while an answer streams clears the screen, and the answer goes on at the top without a stray prompt", async () => {
  const t = atTerminal(["chat", "--sender", "clear-busy"]);
  try {
    const at = await t.waitFor("› ");
    s.fake.script(SLOW_LINE);
    t.type("tell me\r");
    await t.waitFor("alpha bravo charlie", at);
    const before = t.raw().length;
    const shown = t.screen().length;
    t.type("\x0c");
    for (let i = 0; !/\x1b\[(1;1)?H\x1b\[0?J|\x1b\[2J/.test(t.raw().slice(before)); i++) {
      if (i > 500) throw new Error(`Ctrl-L never cleared the screen; it wrote ${JSON.stringify(t.raw().slice(before))}`);
      await Bun.sleep(20);
    }
    s.fake.release();
    const end = await t.waitFor("juliet", shown);
    expect(t.screen().slice(shown, end)).toMatch(/^\s*delta echo foxtrot golf hotel india juliet$/);
  } finally {
    t.kill();
  }
});
