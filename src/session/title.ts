// The background title request (docs/sessions.md#titles): prompt and answer cleanup.
import { prefixOf } from "../base/text-pieces.ts";
import type { Message, UserMessage } from "../model/types.ts";

/** Excerpts given to the model are cut to this many characters (code points). */
export const TITLE_EXCERPT_CHARS = 200;

/**
 * The first non-injected user message and the first assistant message (as
 * much of each as the excerpts need), or undefined if either is missing.
 */
export function titleSource(history: readonly Message[]): { user: string; assistant: string } | undefined {
  const user = history.find((m): m is UserMessage => m.role === "user" && m.injected !== true);
  const assistant = history.find((m) => m.role === "assistant");
  if (user === undefined || assistant === undefined) return undefined;
  // Only what cut() reads: a long answer is never flattened for its first 200 characters.
  const head = (m: Message) => prefixOf(m, "content", m.content, 2 * TITLE_EXCERPT_CHARS + 1);
  return { user: head(user), assistant: head(assistant) };
}

/** The messages of the title request: one user message asking for a 3–6 word title only. */
export function titleRequestMessages(firstUser: string, firstAssistant: string): Message[] {
  const content = [
    "Write a title of 3 to 6 words for the conversation that begins with the two messages below.",
    "Reply with the title only: no quotes, no punctuation at the end, no explanation.",
    "",
    "User:",
    cut(firstUser),
    "",
    "Assistant:",
    cut(firstAssistant),
  ].join("\n");
  return [{ role: "user", content }];
}

/**
 * The first TITLE_EXCERPT_CHARS code points. Only a prefix is split into code
 * points (they take at most two UTF-16 units each): splitting a whole answer
 * of megabytes made an array of millions of strings (issue 23).
 */
function cut(text: string): string {
  const head = Array.from(text.slice(0, 2 * TITLE_EXCERPT_CHARS));
  if (head.length <= TITLE_EXCERPT_CHARS && text.length <= 2 * TITLE_EXCERPT_CHARS) return text;
  return head.slice(0, TITLE_EXCERPT_CHARS).join("");
}

/** A title is at most this many characters (code points): it names a conversation in lists and file names. */
export const TITLE_MAX_CHARS = 80;

/**
 * The model's answer as one line: its first non-empty line, without a
 * Markdown heading mark, a "Title:" label or surrounding quotes, spaces
 * collapsed, cut to TITLE_MAX_CHARS at a word boundary when there is one.
 * A model may answer with a paragraph; lists and file names need one line.
 */
export function cleanTitle(answer: string): string {
  const line =
    answer
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find((l) => l !== "") ?? "";
  const bare = line
    .replace(/^#+\s*/, "")
    .replace(/^title\s*:\s*/i, "")
    .replace(/^["'“”*_`]+|["'“”*_`]+$/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return shorten(bare, TITLE_MAX_CHARS);
}

function shorten(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max).join("");
  const space = cut.lastIndexOf(" ");
  // At the last word boundary unless that drops more than half.
  return (space > max / 2 ? cut.slice(0, space) : cut).trim();
}
