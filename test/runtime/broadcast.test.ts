// Event labels of docs/protocol.md#event-subscription and the scope whitelist of docs/agents.md#scope.
import { expect, test } from "bun:test";
import fc from "fast-check";
import { callLabel, compact, truncateUtf8, usageSummary } from "../../src/runtime/broadcast.ts";
import { scopeBlock, toolWhitelist } from "../../src/runtime/scope.ts";

test("numbers are written as integers below 1000, N.Nk below a million, N.NM above", () => {
  expect([0, 999, 1000, 1500, 999_949, 1_000_000, 2_345_678].map(compact)).toEqual(["0", "999", "1.0k", "1.5k", "999.9k", "1.0M", "2.3M"]);
});

test("DONE content summarises usage, with cache hits when reported, empty without a model round", () => {
  const usage = { promptTokens: 1200, completionTokens: 40, totalTokens: 1240 };
  expect(usageSummary({ model: "m", usage, iterations: 1 })).toBe("m 1.2k in / 40 out");
  expect(usageSummary({ model: "m", usage: { ...usage, cacheHitTokens: 900 }, iterations: 2 })).toBe("m 1.2k in (900 cached) / 40 out");
  expect(usageSummary({ model: "m", usage: undefined, iterations: 0 })).toBe("");
});

test("bash calls are labelled with the first line of their command", () => {
  expect(callLabel({ name: "bash", arguments: JSON.stringify({ command: "ls -la\nrm x" }) })).toBe("bash(ls -la)");
  expect(callLabel({ name: "bash", arguments: "{broken" })).toBe("bash");
  expect(callLabel({ name: "delegate", arguments: "{}" })).toBe("delegate");
});

test("tool output is cut to 2048 bytes at a UTF-8 boundary and marked", () => {
  expect(truncateUtf8("short", 2048)).toBe("short");
  fc.assert(
    fc.property(fc.string({ unit: "grapheme", maxLength: 1500 }), (text) => {
      const cut = truncateUtf8(text, 2048);
      if (Buffer.byteLength(text) <= 2048) return expect(cut).toBe(text);
      expect(cut.endsWith("…[truncated]")).toBe(true);
      const body = cut.slice(0, -"…[truncated]".length);
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(2048);
      expect(text.startsWith(body)).toBe(true);
      expect(body).not.toContain("\uFFFD");
    }),
  );
});

test("whitelists: unscoped agents keep everything; scoped ones get exactly the docs/agents.md#scope tools", () => {
  const none = { skills: [], mcps: [], members: [] };
  expect(toolWhitelist(none)).toEqual([]);
  expect(scopeBlock(none)).toBe("");
  expect(toolWhitelist({ ...none, skills: ["s"] }).sort()).toEqual(["ask_user", "bash", "forget", "memory", "recall", "remember", "skill"]);
  expect(toolWhitelist({ ...none, mcps: ["m"] })).toContain("mcp");
  expect(toolWhitelist({ ...none, members: ["a"] })).toContain("delegate");
  expect(toolWhitelist({ ...none, members: ["a"] })).not.toContain("skill");
  expect(scopeBlock({ skills: ["a", "b"], mcps: ["x"], members: ["r", "w"] })).toBe("\n\n<scope>\nskills: a, b\nmcp servers: x\nmembers: r, w\n</scope>");
});
