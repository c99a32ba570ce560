// Which of stdin, stdout and stderr are terminals, without node:tty (which
// loads Node's stream layer: about 3 ms and 7 MiB of a short command's start).
// Node's native tty binding answers when Bun has it; otherwise, on Linux, a
// terminal is a character device of a tty driver, told apart by its major
// device number; elsewhere node:tty answers.

/** tty (4), /dev/tty and console (5), BSD ptys (2, 3), Unix98 ptys (136-143), USB and other serial ttys. */
const TTY_MAJORS = new Set([2, 3, 4, 5, 136, 137, 138, 139, 140, 141, 142, 143, 166, 188, 204]);

type TtyBinding = { isTTY?: (fd: number) => boolean };

/**
 * Node's own native tty check (the `tty_wrap` binding node:tty calls), when
 * this Bun has it: no thread pool and no stream layer. Issue 11: the stat
 * below runs on the thread pool, which costs a short command about 0.7 ms
 * of CPU and 2 MiB; undefined on a Bun without the binding.
 */
function nativeIsTTY(): ((fd: number) => boolean) | undefined {
  try {
    const binding = (process as unknown as { binding(name: string): TtyBinding }).binding("tty_wrap");
    return typeof binding?.isTTY === "function" ? binding.isTTY : undefined;
  } catch {
    return undefined;
  }
}

export async function isTerminal(fd: 0 | 1 | 2): Promise<boolean> {
  const isTTY = nativeIsTTY();
  if (isTTY) return isTTY(fd);
  if (process.platform !== "linux") return (require("node:tty") as typeof import("node:tty")).isatty(fd);
  try {
    const stat = await Bun.file(fd).stat();
    // rdev = (major << 8) | minor for the first 4096 minors of a major.
    return stat.isCharacterDevice() && TTY_MAJORS.has((Number(stat.rdev) >> 8) & 0xfff);
  } catch {
    return false;
  }
}

/** Whether `dir` is an existing directory (through Bun.file rather than node:fs). */
export async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await Bun.file(dir).stat()).isDirectory();
  } catch {
    return false;
  }
}
