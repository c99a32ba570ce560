// BM25 ranking exactly as daemon.md §12.2 specifies.
//
// Written out rather than delegated to `minisearch` (design.md's pick):
// minisearch 7 cannot reproduce the specified scores. It takes a document's
// length to be its number of *distinct* tokens (§12.2: the token count),
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
const encoder = new TextEncoder();

/** Split on non-alphanumerics, drop ≤ 1-byte tokens, lower-case, drop stop words. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/[^\p{Alphabetic}\p{N}]+/u)) {
    if (encoder.encode(raw).length <= 1) continue;
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
 * ties by `compare` (the caller's name order), at most `limit`.
 */
export function rankBm25<K>(
  query: string,
  docs: ReadonlyArray<{ key: K; doc: IndexedDoc }>,
  limit: number,
  compare: (a: K, b: K) => number,
): Scored<K>[] {
  const n = docs.length;
  if (n === 0 || limit <= 0) return [];
  const terms = [...new Set(tokenize(query))];
  if (terms.length === 0) return [];
  const avgdl = docs.reduce((sum, d) => sum + d.doc.length, 0) / n;
  const idf = new Map<string, number>();
  for (const term of terms) {
    const df = docs.reduce((c, d) => c + (d.doc.tf.has(term) ? 1 : 0), 0);
    if (df > 0) idf.set(term, Math.log((n - df + 0.5) / (df + 0.5) + 1));
  }
  const scored: Scored<K>[] = [];
  for (const { key, doc } of docs) {
    let score = 0;
    for (const [term, weight] of idf) {
      const tf = doc.tf.get(term) ?? 0;
      if (tf === 0) continue;
      score += (weight * (tf * (K1 + 1))) / (tf + K1 * (1 - B + (B * doc.length) / avgdl));
    }
    if (score > 0) scored.push({ key, score });
  }
  scored.sort((a, b) => b.score - a.score || compare(a.key, b.key));
  return scored.slice(0, limit);
}
