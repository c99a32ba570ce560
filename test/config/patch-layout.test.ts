// patchToml on hand-written layouts (issue 19): inline tables, dotted keys,
// values over several lines. Any document still becomes any other, and an
// edit under an inline table keeps every comment.
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { parse } from "smol-toml";
import { patchToml } from "../../src/config/patch.ts";
import { inlineValue, tomlKey } from "../../src/config/toml-spans.ts";

type Table = Record<string, unknown>;
const plain = (v: unknown) => JSON.parse(JSON.stringify(v));
const isTable = (v: unknown): v is Table => v !== null && typeof v === "object" && !Array.isArray(v);

const key = fc.constantFrom("a", "b", "model", "my key", "x.y");
const scalar = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.integer({ min: -5, max: 5 }),
  fc.double({ min: 0, max: 10, noNaN: true }),
  fc.boolean(),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
);
const table = fc.dictionary(key, scalar, { maxKeys: 3 });
const doc = fc.dictionary(key, fc.oneof(scalar, table, fc.dictionary(key, table, { maxKeys: 2 })), { maxKeys: 4 });

/** A value written over several lines with a comment on each, when it is a list. */
function written(value: unknown): string {
  if (Array.isArray(value) && value.length > 0) return `[\n${value.map((v) => `  ${inlineValue(v)}, # item\n`).join("")}]`;
  return inlineValue(value);
}

/** The document in a layout chosen per table by `styles`: [header], inline, or dotted keys. */
function render(d: Table, styles: number[]): string {
  let i = 0;
  const style = () => styles[i++ % styles.length]!;
  const top: string[] = ["# top comment"];
  const sections: string[] = [];
  const section = (path: string[], t: Table) => {
    const lines = [`# about ${path.join(".")}`, `[${path.map(tomlKey).join(".")}]`];
    const subs: [string[], Table][] = [];
    for (const [k, v] of Object.entries(t)) {
      if (isTable(v)) {
        const s = style();
        if (s === 0 && Object.keys(v).length > 0) subs.push([[...path, k], v]);
        else if (s === 1 || Object.keys(v).length === 0) lines.push(`${tomlKey(k)} = ${inlineValue(v)} # inline`);
        else for (const [k2, v2] of Object.entries(v)) lines.push(`${tomlKey(k)}.${tomlKey(k2)} = ${written(v2)} # dotted`);
      } else lines.push(`${tomlKey(k)} = ${written(v)} # value`);
    }
    sections.push(lines.join("\n"));
    for (const [p, s] of subs) section(p, s);
  };
  for (const [k, v] of Object.entries(d)) {
    if (isTable(v) && style() !== 1) section([k], v);
    else top.push(`${tomlKey(k)} = ${written(v)} # top`);
  }
  return [top.join("\n"), ...sections].join("\n\n") + "\n";
}

describe("patchToml on hand-written layouts", () => {
  test("the renderer writes what it means", () => {
    fc.assert(
      fc.property(doc, fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 5 }), (d, styles) => {
        expect(plain(parse(render(d, styles)))).toEqual(plain(d));
      }),
      { numRuns: 200 },
    );
  });

  test("turns any document into any other", () => {
    fc.assert(
      fc.property(doc, doc, fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 5 }), (before, after, styles) => {
        expect(plain(parse(patchToml(render(before, styles), after)))).toEqual(plain(after));
      }),
      { numRuns: 300 },
    );
  });

  test("a change of one value keeps every comment and every other line", () => {
    fc.assert(
      fc.property(doc, fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 5 }), fc.nat(), scalar, (d, styles, pick, value) => {
        const leaves: string[][] = [];
        const walk = (t: Table, p: string[]) => {
          for (const [k, v] of Object.entries(t)) isTable(v) ? walk(v, [...p, k]) : leaves.push([...p, k]);
        };
        walk(d, []);
        if (leaves.length === 0) return;
        const path = leaves[pick % leaves.length]!;
        const next = plain(d) as Table;
        let t = next;
        for (const p of path.slice(0, -1)) t = t[p] as Table;
        t[path.at(-1)!] = value;
        const text = render(d, styles);
        const out = patchToml(text, next);
        expect(plain(parse(out))).toEqual(plain(next));
        const comments = (s: string) => s.split("\n").filter((l) => l.trimStart().startsWith("#"));
        expect(comments(out)).toEqual(comments(text));
        for (const tag of ["# inline", "# dotted", "# top", "# value"]) expect(out.split(tag).length).toBe(text.split(tag).length);
      }),
      { numRuns: 300 },
    );
  });

  test("prices under an inline table, as docs/usage.md writes them", () => {
    const text = `# my providers
[provider.p]
api_key = "k" # the key
models = ["m"]
# USD per million tokens
prices = { "m" = { input = 2.5, output = 10 } } # from the price page
`;
    const next = plain(parse(text)) as Table;
    const prices = (next.provider as { p: { prices: Record<string, { input: number; output: number }> } }).p.prices;
    prices.m!.input = 3.25;
    prices.n = { input: 1, output: 2 };
    expect(patchToml(text, next)).toBe(`# my providers
[provider.p]
api_key = "k" # the key
models = ["m"]
# USD per million tokens
prices = { m = { input = 3.25, output = 10 }, n = { input = 1, output = 2 } } # from the price page
`);
  });
});
