// A small remaining budget lowers the request's output limit (docs/usage.md
// "Budgets") on every provider kind, reasoning budget included.
import { describe, expect, test } from "bun:test";
import { isTitleRequest, type RecordedRequest } from "../support/fake-llm.ts";

type WireBody = RecordedRequest["body"];
import { useLlmDaemon, type ProviderFlavour } from "../support/llm-daemon.ts";

// $1 per million tokens in and out: $0.004 pays the input (~2k tokens of tool schemas) and ~2k-ish of answer.
const BUDGET = `max_usd_per_run = 0.005\nthinking = true`;
const PRICES = `prices = { "fake-model" = { input = 1, output = 1 } }`;

/** The output limit and reasoning budget as each wire format carries them. */
const limits: Record<string, (body: WireBody) => { max?: number; thinking?: number }> = {
  anthropic: (b) => ({ max: b.max_tokens, thinking: b.thinking?.budget_tokens }),
  google: (b) => ({ max: b.generationConfig?.maxOutputTokens, thinking: b.generationConfig?.thinkingConfig?.thinkingBudget }),
};

for (const flavour of ["anthropic", "google"] as ProviderFlavour[]) {
  describe(flavour, () => {
    const t = useLlmDaemon(flavour, { extraConfig: BUDGET, providerConfig: PRICES });

    test("max_tokens is lowered to what the run's budget can pay, and the reasoning budget with it", async () => {
      t.env.fake.script({ text: "short answer", usage: { prompt: 10, completion: 10 } });
      await t.client.send({ agent: "crab", content: "hello", sender: "limits" });
      const request = t.env.fake.requests.find((r) => !isTitleRequest(r.body));
      const { max, thinking } = limits[flavour](request?.body);
      expect(max).toBeGreaterThanOrEqual(2048);
      expect(max).toBeLessThan(5000);
      expect(thinking).toBe(Math.floor((max ?? 0) / 2));
    });
  });
}
