// The terminal's streaming Markdown: however the model's text is cut into
// chunks, the screen ends up the same, and words are never cut at a wrap.
import { expect, test } from "bun:test";
import { StreamingMarkdown } from "../../src/cli/stream/markdown.ts";
import { styleFor } from "../../src/cli/style.ts";

const style = styleFor({ isTTY: true }, {});
/** Escape codes out, and a style closed then reopened around spaces merged (it looks the same). */
const visible = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");
const merged = (s: string) => s.replace(/\x1b\[22m(\s*)\x1b\[1m/g, "$1").replace(/\x1b\[39m(\s*)\x1b\[36m/g, "$1");

/** What the terminal gets for `text` cut at `cuts`, at `width` columns (0: no wrapping). */
function render(text: string, cuts: number[], width = 0): string {
  const md = new StreamingMarkdown(style, () => width);
  let out = "";
  let col = 0;
  const put = (s: string) => {
    out += s;
    const v = visible(s);
    const nl = v.lastIndexOf("\n");
    col = nl >= 0 ? v.length - nl - 1 : col + v.length;
  };
  let prev = 0;
  for (const cut of [...cuts, text.length]) {
    put(md.push(text.slice(prev, cut), col));
    prev = cut;
  }
  put(md.flush(col));
  return out;
}

const SAMPLE = [
  "# Plan ahead",
  "",
  "Some **bold text**, `code span`, __under__, a * star, 2*3 and snake_case.",
  "- **first** step",
  "    - nested `item`",
  "+ plus",
  "> quoted **b**",
  "---",
  "#hashtag and ####### no heading",
  "```py",
  "x = 1  # not **bold**",
  "```",
  "unclosed **bold and `code",
  "done",
].join("\n");

test("the same screen whether the text comes whole, in two pieces cut anywhere, or a character at a time", () => {
  const whole = render(SAMPLE, []);
  expect(visible(whole)).toBe(
    [
      "Plan ahead",
      "",
      "Some bold text, code span, under, a * star, 2*3 and snake_case.",
      "• first step",
      "    • nested item",
      "• plus",
      "│ quoted b",
      "─".repeat(40),
      "#hashtag and ####### no heading",
      "```py",
      "  x = 1  # not **bold**",
      "```",
      "unclosed **bold and `code",
      "done",
    ].join("\n"),
  );
  for (let cut = 1; cut < SAMPLE.length; cut++) expect(merged(render(SAMPLE, [cut]))).toBe(merged(whole));
  const everyChar = Array.from({ length: SAMPLE.length - 1 }, (_, i) => i + 1);
  expect(merged(render(SAMPLE, everyChar))).toBe(merged(whole));
});

test("text is drawn as soon as it is unambiguous: whole words at once, an open span only when it closes", () => {
  const md = new StreamingMarkdown(style, () => 0);
  expect(visible(md.push("Hello wor", 0))).toBe("Hello");
  expect(visible(md.push("ld and **bo", 5))).toBe(" world and");
  expect(visible(md.push("ld** end", 15))).toBe(" bold");
  expect(visible(md.flush(20))).toBe(" end");
});

test("wrapping at a narrow width breaks between words and keeps a list item's indent", () => {
  const words = "a sentence of words with different lengths: supercalifragilistic, tiny, medium-sized and long ones";
  for (const width of [24, 33, 47]) {
    const rows = visible(render(`${words}\n- ${words}`, [7, 30, 61], width)).split("\n");
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(width);
    const item = rows.findIndex((r) => r.startsWith("• "));
    expect(rows.slice(0, item).join(" ")).toBe(words);
    expect(rows.slice(item + 1).every((r) => r.startsWith("  "))).toBe(true);
    expect(
      rows
        .slice(item)
        .map((r) => r.slice(2))
        .join(" "),
    ).toBe(words);
  }
});
