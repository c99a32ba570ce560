// Config keys of usage accounting: prices per provider, [system.budget] and
// the per-run budgets, validated like every other key.
import { expect, test } from "bun:test";
import { ConfigError } from "../../src/config/error.ts";
import { parseConfigText } from "../../src/config/load.ts";

const provider = (prices: string) => `[provider.p]\napi_key = "k"\nmodels = ["m"]\nprices = ${prices}\n`;

function errorOf(text: string): string {
  try {
    parseConfigText(text);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error("expected the config to be rejected");
}

test("prices, budgets and per-run limits parse", () => {
  const { config } = parseConfigText(
    `${provider('{ "m" = { input = 2.5, output = 10, cache_read = 1.25 } }')}
[system.budget]
daily_usd = 5

[system.crab]
max_usd_per_run = 0.5
max_tokens_per_run = 20000
`,
  );
  expect(config.provider.p.prices).toEqual({ m: { input: 2.5, output: 10, cache_read: 1.25 } });
  expect(config.system.budget.daily_usd).toBe(5);
  expect(config.system.crab).toMatchObject({ max_usd_per_run: 0.5, max_tokens_per_run: 20000 });
});

test("bad prices and budgets are refused with the key named", () => {
  expect(errorOf(provider('{ "m" = { input = -1, output = 1 } }'))).toContain("provider.p.prices.m.input: must not be negative");
  expect(errorOf(provider('{ "m" = { input = 1 } }'))).toContain("provider.p.prices.m.output");
  expect(errorOf(provider('{ "m" = { input = "cheap", output = 1 } }'))).toContain("provider.p.prices.m.input: must be a number of US dollars");
  expect(errorOf(provider('"free"'))).toContain("provider.p.prices: must be a table of model prices");
  expect(errorOf("[system.budget]\ndaily_usd = -3\n")).toContain("system.budget.daily_usd: must not be negative");
  expect(errorOf("[system.crab]\nmax_tokens_per_run = 0\n")).toContain("system.crab.max_tokens_per_run: must be at least 1");
  expect(errorOf("[system.crab]\nmax_usd_per_run = true\n")).toContain("system.crab.max_usd_per_run");
});
