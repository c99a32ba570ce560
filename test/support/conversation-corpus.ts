// A made-up but realistic set of conversations written straight to session
// files (as a daemon would have written them): shared by the search tests and
// bench/search.ts. Deterministic: the same count gives the same files.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const SYLLABLES = "ka lo mi nu pe ra si tu vo we ya zo bri cha dre fli gro kle pla stu".split(" ");
const WORDS = (
  "server deploy build release branch merge commit review test flaky cache memory disk network socket request " +
  "response timeout retry error warning log metric alert dashboard query index table schema migration backup " +
  "restore token secret config option flag default value string number array object function class module " +
  "package version upgrade install remove start stop restart daemon service user group permission file folder " +
  "path link copy move rename delete create update read write append stream buffer queue worker thread process " +
  "signal event handler callback promise async await loop batch job schedule cron minute hour day week month " +
  "budget cost price invoice customer order payment refund shipping address email phone meeting agenda notes " +
  "design draft spec proposal decision summary question answer idea plan goal risk issue ticket bug fix patch"
).split(" ");

export interface CorpusQuery {
  query: string;
  /** File name the query must find first. */
  file: string;
}

export interface Corpus {
  files: string[];
  queries: CorpusQuery[];
}

/** A word no other conversation has: three syllables from the index, then `x`. */
export function codename(i: number): string {
  const n = SYLLABLES.length;
  return `${SYLLABLES[i % n]}${SYLLABLES[Math.floor(i / n) % n]}${SYLLABLES[Math.floor(i / (n * n)) % n]}x`;
}

/** Writes `count` conversations of `messages` messages each into `sessionsDir`. */
export function writeCorpus(sessionsDir: string, count: number, messages = 8): Corpus {
  mkdirSync(sessionsDir, { recursive: true });
  let seed = 42;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const sentence = (words: number) => Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]).join(" ");
  const files: string[] = [];
  const queries: CorpusQuery[] = [];
  for (let i = 0; i < count; i++) {
    const agent = i % 5 === 0 ? "reviewer" : "crab";
    const sender = i % 2 === 0 ? "alice" : "bob";
    const name = `${agent}_${sender}_${i + 1}.jsonl`;
    const meta = { agent, created_by: sender, created_at: "2026-01-01T00:00:00Z", title: `conversation ${i + 1}`, uptime_secs: 3 };
    const lines = [JSON.stringify(meta)];
    const special = i % messages;
    for (let m = 0; m < messages; m++) {
      let content = sentence(20 + Math.floor(random() * 40));
      if (m === special) {
        const word = content.split(" ")[3];
        content = `${content} ${codename(i)}`;
        if (i % 50 === 0) queries.push({ query: `${word} ${codename(i)}`, file: name });
      }
      lines.push(JSON.stringify({ role: m % 2 === 0 ? "user" : "assistant", content }));
      if (m % 2 === 1 && m < messages - 1 && random() < 0.3) {
        lines.push(JSON.stringify({ role: "tool", content: "tool output is not searched", tool_call_id: `c${m}` }));
      }
    }
    writeFileSync(join(sessionsDir, name), `${lines.join("\n")}\n`);
    files.push(name);
  }
  return { files, queries };
}
