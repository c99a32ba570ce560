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
    const kept = text.split("\n").filter((line) => !line.includes(PATH_LINE_MARKER));
    writeFileSync(file, kept.join("\n"));
    changed.push(file);
  }
  return changed;
}
