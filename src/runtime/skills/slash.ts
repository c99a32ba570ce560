// Slash-command preprocessing (docs/memory.md#slash-commands): `/name rest` becomes the
// rest plus the skill's body wrapped in a <skill> tag, before it enters history.
import type { SkillDir } from "./dirs.ts";
import { loadFirstParsing } from "./load.ts";

export interface SlashOptions {
  dirs: readonly SkillDir[];
  disabled: readonly string[];
  /** The agent's skill scope; empty = every skill. */
  scope: readonly string[];
}

const COMMAND = /^\/([a-z0-9-]*)/;

/** The expanded message, or `content` unchanged when it is not a usable skill command. */
export function expandSlash(content: string, options: SlashOptions): string {
  const text = content.trimStart();
  const match = COMMAND.exec(text);
  const name = match?.[1];
  if (!match || !name) return content;
  if (options.scope.length > 0 && !options.scope.includes(name)) return content;
  if (options.disabled.includes(name)) return content;
  // The path guard of the skill tool is implied: the name is [a-z0-9-] only.
  const skill = loadFirstParsing(options.dirs, name);
  if (!skill) return content;
  const block = `<skill name="${name}">\n${skill.body}\n</skill>`;
  const remainder = text.slice(match[0].length).trimStart();
  return remainder === "" ? block : `${remainder}\n\n${block}`;
}
