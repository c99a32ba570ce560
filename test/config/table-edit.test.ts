// Targeted edits of config.toml keep everything else, comments included.
import { expect, test } from "bun:test";
import { parse } from "smol-toml";
import { headerPath, setKey, setTable } from "../../src/config/table-edit.ts";
import { CONFIG_TEMPLATE } from "../../src/config/template.ts";

type Doc = Record<string, Record<string, Record<string, unknown>>>;

test("header paths, quoted keys and trailing comments included", () => {
  expect(headerPath('[provider."my.llm"]')).toEqual(["provider", "my.llm"]);
  expect(headerPath("[system.crab] # note")).toEqual(["system", "crab"]);
  expect(headerPath("[[array]]")).toBeUndefined();
  expect(headerPath("key = 1")).toBeUndefined();
});

test("replacing one provider table keeps the others and every comment", () => {
  const text = `# top comment\n[provider.openai]\napi_key = "k"\nmodels = ["a"]\n\n# keep me\n[provider.other]\nmodels = ["b"]\n\n[system.crab]\nmodel = "a"\n`;
  const out = setTable(text, ["provider", "openai"], { api_key: "k2", models: ["a", "c"] });
  expect(out).toContain("# top comment");
  expect(out).toContain("# keep me");
  const doc = parse(out) as Doc;
  expect(doc.provider.openai).toEqual({ api_key: "k2", models: ["a", "c"] });
  expect(doc.provider.other).toEqual({ models: ["b"] });
  const removed = parse(setTable(out, ["provider", "other"], undefined)) as Doc;
  expect(removed.provider.other).toBeUndefined();
  expect(removed.provider.openai.api_key).toBe("k2");
});

test("setting one key edits its line in place, or adds it under the header", () => {
  const out = setKey(CONFIG_TEMPLATE, ["system", "crab"], "model", "gpt-4o");
  expect((parse(out) as Doc).system.crab.model).toBe("gpt-4o");
  expect(out.split("\n").length).toBe(CONFIG_TEMPLATE.split("\n").length + 1); // one line added, comments kept
  const again = setKey(out, ["system", "crab"], "model", "other");
  expect(again.split("\n").length).toBe(out.split("\n").length);
  expect((parse(again) as Doc).system.crab.model).toBe("other");
  expect((parse(setKey("", ["system", "crab"], "model", "m")) as Doc).system.crab.model).toBe("m");
});
