// The message `crabtalk send` sends: its argument, what is piped on standard
// input, or both (`git diff | crabtalk send "review this diff"`): the argument
// first, then a blank line, then the piped text, as `claude -p` does.
// Standard input is read only when something can be piped on it: never a
// terminal, /dev/null or a closed descriptor, so an argument alone never waits.
// Bun-only (no node:fs): the fast path loads this (issue 11).

export const EMPTY_MESSAGE = "empty message: give it as an argument or on standard input";

/** Whether fd 0 is a pipe, socket or file, i.e. it can carry piped text (terminals and /dev/null cannot). */
async function stdinCanCarryText(): Promise<boolean> {
  try {
    const stat = await Bun.file(0).stat();
    return stat.isFIFO() || stat.isSocket() || stat.isFile();
  } catch {
    return false; // closed
  }
}

async function pipedText(): Promise<string> {
  return (await Bun.stdin.text()).replace(/\s+$/, "");
}

/**
 * The message for `arg` (undefined or `-`: standard input alone) when standard
 * input is not a terminal. Throws EMPTY_MESSAGE when there is nothing to send.
 */
export async function composeMessage(arg: string | undefined): Promise<string> {
  const fromStdin = arg === undefined || arg === "-";
  const piped = fromStdin || (await stdinCanCarryText()) ? await pipedText() : "";
  const parts = [fromStdin ? "" : arg, piped].filter((part) => part.trim() !== "");
  if (parts.length === 0) throw new Error(EMPTY_MESSAGE);
  return parts.join("\n\n");
}
