// Error messages go to any client: they name files relative to the home
// (`<home>/sessions/x.jsonl`), never by the absolute path of the owner's home.
import { realpathSync } from "node:fs";

export const HOME_MARK = "<home>";

/** A scrubber replacing the home (as configured and as really resolved) by `<home>`. */
export function homeHider(home: string): (message: string) => string {
  const spellings = new Set([home]);
  try {
    spellings.add(realpathSync(home));
  } catch {
    // not there yet: the configured spelling is all there is
  }
  // Longest first, so a home inside another spelling of it is replaced whole.
  const ordered = [...spellings].filter((s) => s.length > 1).sort((a, b) => b.length - a.length);
  return (message) => {
    let out = message;
    for (const spelling of ordered) out = out.split(spelling).join(HOME_MARK);
    return out;
  };
}
