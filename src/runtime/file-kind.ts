// What a path is, in words, for warnings about files skipped because they are
// not regular files (a FIFO would block a read for ever, a device never ends).
import { lstatSync, statSync, type Stats } from "node:fs";

function kind(st: Stats): string {
  if (st.isFile()) return "a regular file";
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  return "not a regular file";
}

/** `a FIFO (named pipe)`, `a symbolic link to a character device`, `missing`… */
export function describeFile(path: string): string {
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch {
    return "missing";
  }
  if (!st.isSymbolicLink()) return kind(st);
  try {
    return `a symbolic link to ${kind(statSync(path))}`;
  } catch {
    return "a broken symbolic link";
  }
}

/** Whether `path` is a regular file, following symbolic links. */
export function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
