// The approve rule language (docs/approvals.md): `tool` or `tool:glob`,
// matched against bash's command or another tool's arguments as compact JSON.
import { expect, test } from "bun:test";
import { globMatches, mainArgument, matchingRules, parseRule } from "../../src/base/approval-rules.ts";
import { visible } from "../../src/runtime/approval/gate.ts";

const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });

test("globs match the whole string; * spans spaces, slashes and newlines; ? is one character", () => {
  expect(globMatches("rm *", "rm -rf /tmp/x")).toBe(true);
  expect(globMatches("rm *", "cd / && rm -rf x")).toBe(false);
  expect(globMatches("*rm *", "cd / && rm -rf x")).toBe(true);
  expect(globMatches("*rm *", "echo a\nrm -rf x")).toBe(true);
  expect(globMatches("git push?", "git push!")).toBe(true);
  expect(globMatches("git push?", "git push")).toBe(false);
  expect(globMatches("a.b", "axb")).toBe(false); // regex characters are literal
  expect(globMatches("[x]", "[x]")).toBe(true);
  expect(globMatches("*", "")).toBe(true);
  expect(globMatches("é?", "éé")).toBe(true); // by character, not UTF-16 unit
});

test("a hostile long command against a many-star pattern is decided, not backtracked forever", () => {
  const hostile = "a".repeat(64 * 1024);
  expect(globMatches("*a*a*a*a*a*a*b", hostile)).toBe(false);
  expect(globMatches("*a*a*a*a*a*a*", hostile)).toBe(true);
});

test("rules: the tool part is a glob too; patterns see bash's command or the compact JSON of other tools", () => {
  expect(matchingRules(["bash"], call("bash", { command: "ls" }))).toEqual(["bash"]);
  expect(matchingRules(["bash:rm *", "bash:*sudo *"], call("bash", { command: "  rm -rf x  " }))).toEqual(["bash:rm *"]);
  expect(matchingRules(["*"], call("remember", { key: "k" }))).toEqual(["*"]);
  expect(matchingRules(['mcp:*"delete*'], call("mcp", { name: "fs", args: { tool: "delete_file" } }))).toEqual(['mcp:*"delete*']);
  expect(matchingRules(["bash"], call("ask_user", {}))).toEqual([]);
  expect(mainArgument({ name: "remember", arguments: '{ "key" :  "k" }' })).toBe('{"key":"k"}');
  expect(mainArgument({ name: "bash", arguments: "not json" })).toBe("not json");
  // A malformed rule matches nothing.
  expect(matchingRules([":x"], call("bash", { command: "x" }))).toEqual([]);
});

test("parseRule explains malformed rules", () => {
  expect(parseRule("bash:rm *")).toEqual({ tool: "bash", pattern: "rm *" });
  expect(parseRule("bash:a:b")).toEqual({ tool: "bash", pattern: "a:b" });
  expect(parseRule("")).toBeString();
  expect(parseRule("bash:")).toBeString();
  expect(parseRule("ba sh")).toBeString();
});

test("visible: control, invisible and direction characters are escaped; newlines and tabs stay", () => {
  expect(visible("a\u001b[31mb\rc\u202ed\u200be\tf\ng\u0085")).toBe("a\\x1b[31mb\\x0dc\\u202ed\\u200be\tf\ng\\x85");
});
