// In-process serialisation of the writes to one session file: a meta rewrite
// reads the whole file and renames a copy over it, so an append landing in
// between would be lost; appends of one file also land whole and in call order.
import { resolve } from "node:path";

const tails = new Map<string, Promise<void>>();

/** Run `task` after every earlier task on the same path has settled. */
export function withFileLock<T>(path: string, task: () => Promise<T>): Promise<T> {
  const key = resolve(path);
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(task);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  tails.set(key, tail);
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return run;
}
