import { describe, expect, test } from "bun:test";
import type { Message } from "../../src/model/types.ts";
import { cleanTitle, TITLE_EXCERPT_CHARS, TITLE_MAX_CHARS, titleRequestMessages, titleSource } from "../../src/session/title.ts";

describe("title request (docs/sessions.md#titles)", () => {
  test("one user message with both excerpts, asking for a 3–6 word title only", () => {
    const messages = titleRequestMessages("How do I deploy?", "Use the CLI.");
    expect(messages).toHaveLength(1);
    expect(messages[0].role).toBe("user");
    expect(messages[0].content).toContain("How do I deploy?");
    expect(messages[0].content).toContain("Use the CLI.");
    expect(messages[0].content).toContain("3 to 6 words");
    expect(messages[0].content).toContain("title only");
  });

  test("each excerpt is cut to 200 characters (code points, not bytes or UTF-16 units)", () => {
    const long = "é".repeat(150) + "😀".repeat(100) + "TAIL";
    const [m] = titleRequestMessages(long, "b".repeat(500));
    const expectedUser = "é".repeat(150) + "😀".repeat(50);
    expect(Array.from(expectedUser)).toHaveLength(TITLE_EXCERPT_CHARS);
    expect(m.content).toContain(`${expectedUser}\n`);
    expect(m.content).not.toContain("😀".repeat(51));
    expect(m.content).not.toContain("TAIL");
    expect(m.content).toContain("b".repeat(200));
    expect(m.content).not.toContain("b".repeat(201));
  });

  test("an excerpt of exactly 200 code points in surrogate pairs is whole; past 200 it is cut, a pair never split", () => {
    const exact = "😀".repeat(TITLE_EXCERPT_CHARS);
    expect(titleRequestMessages(exact, "a")[0].content).toContain(`\n${exact}\n`);
    const over = titleRequestMessages(`${exact}é`, `${"b".repeat(399)}😀😀`)[0].content;
    expect(over).toContain(`\n${exact}\n`);
    expect(over).not.toContain("é");
    expect(over).toContain(`\n${"b".repeat(TITLE_EXCERPT_CHARS)}`);
    expect(over).not.toContain("\uD83D");
  });

  test("an excerpt of a 12 MiB answer costs a prefix, not the whole answer split into code points", () => {
    const huge = "x".repeat(12 * 1024 * 1024);
    const before = process.memoryUsage().rss;
    const [m] = titleRequestMessages("q", huge);
    expect(m.content).toContain(`\n${"x".repeat(TITLE_EXCERPT_CHARS)}`);
    expect(m.content).not.toContain("x".repeat(TITLE_EXCERPT_CHARS + 1));
    // Splitting it all was an array of 12 million strings: hundreds of MiB.
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });

  test("titleSource takes the first non-injected user message and the first assistant message", () => {
    const history: Message[] = [
      { role: "user", content: "<memory>", injected: true },
      { role: "user", content: "question" },
      { role: "assistant", content: "answer" },
      { role: "user", content: "later" },
    ];
    expect(titleSource(history)).toEqual({ user: "question", assistant: "answer" });
    expect(titleSource([{ role: "user", content: "q" }])).toBeUndefined();
  });
});

describe("cleanTitle", () => {
  test("trims and strips surrounding double quotes", () => {
    expect(cleanTitle('  "Deploying the daemon"\n')).toBe("Deploying the daemon");
    expect(cleanTitle("Plain title")).toBe("Plain title");
    expect(cleanTitle('""')).toBe("");
    expect(cleanTitle("   ")).toBe("");
    expect(cleanTitle('Say "hi" twice')).toBe('Say "hi" twice');
  });

  test("one line: the first non-empty one, without a heading mark, a Title: label or quotes", () => {
    expect(cleanTitle("\n\n**Deploying the daemon**\n\nI chose this title because…")).toBe("Deploying the daemon");
    expect(cleanTitle("# Title: Fixing  the\tbuild\r\nmore")).toBe("Fixing the build");
    expect(cleanTitle("“Curly quotes”")).toBe("Curly quotes");
  });

  test("at most 80 characters, cut at a word boundary (code points, not UTF-16 units)", () => {
    const words = cleanTitle("word ".repeat(40));
    expect(words.length).toBeLessThanOrEqual(TITLE_MAX_CHARS);
    expect(words).toMatch(/^(word )*word$/);
    const unbroken = cleanTitle("😀".repeat(200));
    expect(Array.from(unbroken)).toHaveLength(TITLE_MAX_CHARS);
  });
});
