// BM25 ranking exactly as docs/memory.md#recall-ranking specifies: memory recall and conversation search (docs/search.md) both rank with it.
//
// Written out rather than delegated to `minisearch` (the library first chosen):
// minisearch 7 cannot reproduce the specified scores. It takes a document's
// length to be its number of *distinct* tokens (docs/memory.md#recall-ranking: the token count),
// multiplies each hit's score by the number of query terms it matched, and
// adds a BM25+ `d` term. The formula itself is a dozen lines.

const STOP_WORDS = new Set(
  (
    "a an the is it in of to and or for on at by with as be was are been has had have do does did but not no if so " +
    "from that this then than into its my me we he she they you your our his her"
  ).split(" "),
);

const K1 = 1.2;
const B = 0.75;

/** Split on non-alphanumerics, drop ≤ 1-byte tokens, lower-case, drop stop words. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/[^\p{Alphabetic}\p{N}]+/u)) {
    // ≤ 1 byte: empty, or one ASCII character (any other character is 2+ bytes in UTF-8).
    if (raw.length === 0 || (raw.length === 1 && raw.charCodeAt(0) < 0x80)) continue;
    const token = raw.toLowerCase();
    if (!STOP_WORDS.has(token)) out.push(token);
  }
  return out;
}

/** A document prepared for scoring: its length and term frequencies. */
export interface IndexedDoc {
  length: number;
  tf: Map<string, number>;
}

export function indexDoc(text: string): IndexedDoc {
  const tokens = tokenize(text);
  const tf = new Map<string, number>();
  for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
  return { length: tokens.length, tf };
}

export interface Scored<K> {
  key: K;
  score: number;
}

/**
 * Scores every document against the query; keeps scores > 0, highest first,
 * ties by `compare` (the caller's name order), at most `limit`. (Memory:
 * a few entries, indexed per query.)
 */
export function rankBm25<K>(query: string, docs: ReadonlyArray<{ key: K; doc: IndexedDoc }>, limit: number, compare: (a: K, b: K) => number): Scored<K>[] {
  const index = new Bm25Index<K>();
  for (const { key, doc } of docs) index.add(key, doc);
  return index.search(query, limit, compare);
}

/**
 * BM25 over an inverted index: documents are added and removed one by one,
 * a query touches only the documents that contain one of its terms, so
 * conversation search keeps one for every message. N and avgdl are those of
 * the whole index; `accept` filters the hits.
 */
export class Bm25Index<K> {
  private postings = new Map<string, Map<K, number>>();
  private docs = new Map<K, IndexedDoc>();
  private totalLength = 0;

  get size(): number {
    return this.docs.size;
  }

  add(key: K, doc: IndexedDoc): void {
    this.remove(key);
    this.docs.set(key, doc);
    this.totalLength += doc.length;
    for (const [term, tf] of doc.tf) {
      let list = this.postings.get(term);
      if (!list) this.postings.set(term, (list = new Map()));
      list.set(key, tf);
    }
  }

  remove(key: K): void {
    const doc = this.docs.get(key);
    if (!doc) return;
    this.docs.delete(key);
    this.totalLength -= doc.length;
    for (const term of doc.tf.keys()) {
      const list = this.postings.get(term);
      list?.delete(key);
      if (list?.size === 0) this.postings.delete(term);
    }
  }

  search(query: string, limit: number, compare: (a: K, b: K) => number, accept: (key: K) => boolean = () => true): Scored<K>[] {
    const n = this.docs.size;
    if (n === 0 || limit <= 0) return [];
    const avgdl = this.totalLength / n;
    const scores = new Map<K, number>();
    for (const term of new Set(tokenize(query))) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = Math.log((n - list.size + 0.5) / (list.size + 0.5) + 1);
      for (const [key, tf] of list) {
        if (!accept(key)) continue;
        const length = this.docs.get(key)!.length;
        const score = (idf * (tf * (K1 + 1))) / (tf + K1 * (1 - B + (B * length) / avgdl));
        scores.set(key, (scores.get(key) ?? 0) + score);
      }
    }
    const scored: Scored<K>[] = [];
    for (const [key, score] of scores) if (score > 0) scored.push({ key, score });
    scored.sort((a, b) => b.score - a.score || compare(a.key, b.key));
    return scored.slice(0, limit);
  }
}
