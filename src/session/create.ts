// Creating the next session file of an identity without ever clobbering one
// (docs/sessions.md#files-and-names): concurrent `new_chat`s must not share a seq.
import { link, open, rm } from "node:fs/promises";
import { join } from "node:path";
import { syncDir, tempPathFor } from "../base/atomic-file.ts";
import { withFileLock } from "./file-lock.ts";
import { metaToLine, type SessionMeta } from "./jsonl.ts";
import { nextSeq, sessionFileName } from "./names.ts";

/**
 * How long the highest seq an identity was seen with is trusted without
 * listing the directory again. Listing is O(files) (about 7 ms at 10,000
 * files) and creations are serialised, so listing on every `new_chat` made
 * the turn rate fall with the number of conversations. A file another
 * process adds meanwhile is still never clobbered (`link` refuses a taken
 * name); at worst a seq is allocated below such a file's for this long.
 */
export const SEQ_LISTING_MS = 1000;

/** `dir` + NUL + agent + NUL + created_by → last seq this process allocated, and when the directory was last listed for it. */
const recentSeqs = new Map<string, { seq: number; listedAt: number }>();

async function startSeq(dir: string, key: string, meta: SessionMeta, now: number): Promise<number> {
  const known = recentSeqs.get(key);
  if (known && now - known.listedAt < SEQ_LISTING_MS) return known.seq + 1;
  for (const [k, v] of recentSeqs) if (now - v.listedAt >= SEQ_LISTING_MS) recentSeqs.delete(k);
  recentSeqs.set(key, { seq: 0, listedAt: now });
  return nextSeq(dir, meta.agent, meta.created_by);
}

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
    const key = `${dir}\u0000${meta.agent}\u0000${meta.created_by}`;
    try {
      for (let seq = await startSeq(dir, key, meta, Date.now()); ; seq++) {
        const path = join(dir, sessionFileName(meta.agent, meta.created_by, seq));
        try {
          await link(tmp, path);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === "EEXIST") continue;
          throw err;
        }
        const known = recentSeqs.get(key);
        if (known) known.seq = Math.max(known.seq, seq);
        await syncDir(dir);
        return path;
      }
    } finally {
      await rm(tmp, { force: true });
    }
  });
}
