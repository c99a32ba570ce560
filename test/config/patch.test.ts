// patchToml: any document can be rewritten into any other, and what did not
// change keeps its text (comments included).
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { parse, stringify } from "smol-toml";
import { patchToml } from "../../src/config/patch.ts";

const plain = (v: unknown) => JSON.parse(JSON.stringify(v));
const key = fc.constantFrom("a", "b", "model", "my key", "x.y");
const scalar = fc.oneof(fc.string({ maxLength: 8 }), fc.integer({ min: -5, max: 5 }), fc.boolean(), fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }));
const table = fc.dictionary(key, scalar, { maxKeys: 3 });
const doc = fc.dictionary(key, fc.oneof(scalar, table, fc.dictionary(key, table, { maxKeys: 2 })), { maxKeys: 4 });

describe("patchToml", () => {
  test("turns any document into any other", () => {
    fc.assert(
      fc.property(doc, doc, (before, after) => {
        const text = stringify(before);
        expect(plain(parse(patchToml(text, after)))).toEqual(plain(after));
      }),
      { numRuns: 300 },
    );
  });

  test("keeps comments, order and untouched lines; changes, adds and removes only what differs", () => {
    const text = `# top comment
[provider.openai]
api_key = "\${OPENAI_API_KEY}"   # from the environment
models = ["gpt-4o"]

# the default agent
[system.crab]
model = "gpt-4o"
thinking = false
`;
    const out = patchToml(text, {
      provider: { openai: { api_key: "${OPENAI_API_KEY}", models: ["gpt-4o", "o3"] } },
      system: { crab: { model: "o3", max_iterations: 4 } },
    });
    expect(out).toBe(`# top comment
[provider.openai]
api_key = "\${OPENAI_API_KEY}"   # from the environment
models = [ "gpt-4o", "o3" ]

# the default agent
[system.crab]
max_iterations = 4
model = "o3"
`);
  });
});
