// The PATH lines `install.sh --add-to-path` appends to shell startup files,
// found again by their marker so `crabtalk uninstall` can take them out.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** Must match the comment install.sh puts at the end of the line it adds. */
export const PATH_LINE_MARKER = "# added by the crabtalk installer";

type Env = Record<string, string | undefined>;

export function shellProfiles(env: Env): string[] {
  const home = env.HOME || homedir();
  return [
    join(home, ".bashrc"),
    join(home, ".bash_profile"),
    join(home, ".profile"),
    join(env.ZDOTDIR || home, ".zshrc"),
    join(env.XDG_CONFIG_HOME || join(home, ".config"), "fish", "config.fish"),
  ];
}

/** Removes the installer's lines; returns the files that had one. */
export function removePathLines(env: Env): string[] {
  const changed: string[] = [];
  for (const file of new Set(shellProfiles(env))) {
    if (!existsSync(file)) continue;
    const text = readFileSync(file, "utf8");
    if (!text.includes(PATH_LINE_MARKER)) continue;
    writeFileSync(file, withoutPathLines(text));
    changed.push(file);
  }
  return changed;
}

/**
 * `text` without the installer's lines, and without the blank line the
 * installer put before each (it appends "\n<line>\n"), so none is left behind.
 */
export function withoutPathLines(text: string): string {
  const lines = text.split("\n");
  const kept: string[] = [];
  for (const line of lines) {
    if (!line.includes(PATH_LINE_MARKER)) kept.push(line);
    else if (kept.length > 0 && kept[kept.length - 1] === "") kept.pop();
  }
  return kept.join("\n");
}
