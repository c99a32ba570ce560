// The approve key of [system.crab] and [agents.<name>] (docs/approvals.md).
import { expect, test } from "bun:test";
import { ConfigError } from "../../src/config/error.ts";
import { parseConfigText } from "../../src/config/load.ts";

test("approve rules load from [system.crab] and [agents.<name>]", () => {
  const { config } = parseConfigText('[system.crab]\napprove = ["bash", "bash:rm *"]\n[agents.helper]\napprove = ["*"]\n');
  expect(config.system.crab.approve).toEqual(["bash", "bash:rm *"]);
  expect(config.agents.helper.approve).toEqual(["*"]);
});

test("a malformed rule stops the load with a message naming the key", () => {
  for (const [value, message] of [
    ['[""]', "must start with a tool name"],
    ['["bash:"]', "has an empty pattern"],
    ['["ba sh"]', "must not contain whitespace"],
    ['"bash"', "must be an array of strings"],
  ]) {
    let err: unknown;
    try {
      parseConfigText(`[system.crab]\napprove = ${value}\n`);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toContain("system.crab.approve");
    expect((err as Error).message).toContain(message);
  }
});
