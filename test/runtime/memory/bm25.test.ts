// Tokeniser and BM25 scoring (docs/memory.md#recall-ranking), against hand-computed values.
import { expect, test } from "bun:test";
import { indexDoc, rankBm25, tokenize } from "../../../src/runtime/memory/bm25.ts";

test("splits on non-alphanumerics, lower-cases, drops stop words and 1-byte tokens", () => {
  expect(tokenize("The Cat's pyjamas, and THE dog-house!")).toEqual(["cat", "pyjamas", "dog", "house"]);
  expect(tokenize("a b c 1 2 x9 I'm ok")).toEqual(["x9", "ok"]);
  expect(tokenize("it is what it was, for you and your dog")).toEqual(["what", "dog"]);
  expect(tokenize("")).toEqual([]);
});

test("Unicode: letters and digits of any script are kept; a 1-char non-ASCII token is over 1 byte", () => {
  expect(tokenize("Café_Über→東京 é ß")).toEqual(["café", "über", "東京", "é", "ß"]);
  expect(tokenize("٣٤ numbers")).toEqual(["٣٤", "numbers"]);
});

// Corpus: A = "cats cats purr" (3 tokens), B = "dogs dogs bark loudly" (4), C = "birds" (1).
// N = 3, avgdl = 8/3, k1 = 1.2, b = 0.75.
const corpus = [
  { key: "A", doc: indexDoc("cats cats purr") },
  { key: "B", doc: indexDoc("dogs dogs bark loudly") },
  { key: "C", doc: indexDoc("birds") },
];
const byName = (a: string, b: string) => a.localeCompare(b);

test("single-term score matches the formula by hand", () => {
  // df(cats) = 1: idf = ln((3 - 1 + 0.5)/(1 + 0.5) + 1) = ln(8/3)
  // A: tf = 2, dl = 3: 2·2.2 / (2 + 1.2·(0.25 + 0.75·3/(8/3))) = 4.4 / 3.3125
  const hits = rankBm25("cats", corpus, 10, byName);
  expect(hits.map((h) => h.key)).toEqual(["A"]);
  expect(hits[0]!.score).toBeCloseTo(Math.log(8 / 3) * (4.4 / 3.3125), 12);
  expect(hits[0]!.score).toBeCloseTo(1.302837, 5);
});

test("scores sum over distinct query terms; repeated query terms count once", () => {
  // B: bark tf 1, dl 4: 2.2 / (1 + 1.2·(0.25 + 0.75·4/(8/3))) = 2.2 / 2.65
  // C: birds tf 1, dl 1: 2.2 / (1 + 1.2·(0.25 + 0.75·1/(8/3))) = 2.2 / 1.6375
  const hits = rankBm25("bark birds bark BARK", corpus, 10, byName);
  expect(hits.map((h) => h.key)).toEqual(["C", "B"]);
  expect(hits[0]!.score).toBeCloseTo(Math.log(8 / 3) * (2.2 / 1.6375), 12);
  expect(hits[1]!.score).toBeCloseTo(Math.log(8 / 3) * (2.2 / 2.65), 12);
  const both = rankBm25("dogs loudly", corpus, 10, byName);
  // dogs tf 2 → 4.4/(2 + 1.65) ; loudly tf 1 → 2.2/2.65
  expect(both[0]!.score).toBeCloseTo(Math.log(8 / 3) * (4.4 / 3.65 + 2.2 / 2.65), 12);
});

test("a term in most documents still scores (idf stays positive); df counts documents", () => {
  const docs = [
    { key: "x", doc: indexDoc("shared shared") },
    { key: "y", doc: indexDoc("shared other") },
    { key: "z", doc: indexDoc("third") },
  ];
  // df = 2, N = 3: idf = ln(1.5/2.5 + 1) = ln(1.6); avgdl = 5/3
  const hits = rankBm25("shared", docs, 10, byName);
  expect(hits.map((h) => h.key)).toEqual(["x", "y"]);
  expect(hits[0]!.score).toBeCloseTo(Math.log(1.6) * (4.4 / (2 + 1.2 * (0.25 + (0.75 * 2) / (5 / 3)))), 12);
  expect(hits[1]!.score).toBeCloseTo(Math.log(1.6) * (2.2 / (1 + 1.2 * (0.25 + (0.75 * 2) / (5 / 3)))), 12);
});

test("ties are broken by name, the limit truncates, no match or empty query gives nothing", () => {
  const docs = ["delta", "alpha", "charlie", "bravo"].map((key) => ({ key, doc: indexDoc("same words here") }));
  docs.push({ key: "echo", doc: indexDoc("unrelated") });
  expect(rankBm25("words", docs, 10, byName).map((h) => h.key)).toEqual(["alpha", "bravo", "charlie", "delta"]);
  expect(rankBm25("words", docs, 2, byName).map((h) => h.key)).toEqual(["alpha", "bravo"]);
  expect(rankBm25("words", docs, 0, byName)).toEqual([]);
  expect(rankBm25("nothing", docs, 10, byName)).toEqual([]);
  expect(rankBm25("the and of", docs, 10, byName)).toEqual([]);
  expect(rankBm25("words", [], 10, byName)).toEqual([]);
});
