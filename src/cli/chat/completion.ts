// Tab completion in chat: its commands and the skill names a message may start with.
import { withClient, type ConnectOptions } from "../connect.ts";
import { CHAT_COMMANDS } from "./slash-commands.ts";

/** The enabled skills' names, fetched at start and again when a /word is not among them. */
export class SkillNames {
  names: string[] = [];

  constructor(private readonly conn: ConnectOptions) {}

  async refresh(): Promise<string[]> {
    try {
      this.names = (await withClient(this.conn, (c) => c.listSkills())).filter((s) => s.enabled).map((s) => s.name);
    } catch {
      // keep the last list: completion is a convenience
    }
    return this.names;
  }
}

/** Completions of a line that is a lone /word so far. */
export function completions(line: string, skills: readonly string[]): string[] {
  if (!/^\/\S*$/.test(line)) return [];
  const words = [...CHAT_COMMANDS, ...skills.map((s) => `/${s}`)];
  return words.filter((w) => w.startsWith(line)).sort();
}
