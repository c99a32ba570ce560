// Creating the next session file of an identity without ever clobbering one
// (daemon.md §6.3): concurrent `new_chat`s must not share a seq.
import { link, open, rm } from "node:fs/promises";
import { join } from "node:path";
import { syncDir, tempPathFor } from "./atomic.ts";
import { withFileLock } from "./file-lock.ts";
import { metaToLine, type SessionMeta } from "./jsonl.ts";
import { nextSeq, sessionFileName } from "./names.ts";

/**
 * Create `{agent}_{slug}_{seq}.jsonl` in `dir` with the next free seq of
 * (meta.agent, meta.created_by), holding only the meta line, and return its
 * path. The file appears complete or not at all (temp file + link), and an
 * existing file is never overwritten: a taken name moves on to the next seq.
 */
export function createNextSessionFile(dir: string, meta: SessionMeta): Promise<string> {
  // One allocation per directory at a time within this process; `link`
  // refusing an existing name covers anyone else.
  return withFileLock(join(dir, ".create"), async () => {
    const tmp = tempPathFor(join(dir, "new-session"));
    const handle = await open(tmp, "wx", 0o600);
    try {
      await handle.writeFile(`${metaToLine(meta)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      for (let seq = await nextSeq(dir, meta.agent, meta.created_by); ; seq++) {
        const path = join(dir, sessionFileName(meta.agent, meta.created_by, seq));
        try {
          await link(tmp, path);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === "EEXIST") continue;
          throw err;
        }
        await syncDir(dir);
        return path;
      }
    } finally {
      await rm(tmp, { force: true });
    }
  });
}
