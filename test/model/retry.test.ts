// Retries, timeouts and error text (docs/providers.md#errors) against both fake servers.
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { ProviderError } from "../../src/model/errors.ts";
import { backoffDelay, withRetry } from "../../src/model/retry.ts";
import type { ProviderKind } from "../../src/base/provider-kinds.ts";
import type { ProviderSettings } from "../../src/base/provider-settings.ts";
import type { StreamChunk } from "../../src/model/types.ts";
import { startFakeAnthropic } from "../support/fake-anthropic.ts";
import { startFakeBedrock } from "../support/fake-bedrock.ts";
import { startFakeGemini } from "../support/fake-gemini.ts";
import { cutGate, type FakeLLM } from "../support/fake-llm.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import { until } from "../support/until.ts";
import { KEY, assemble, collect, failure, modelFor } from "./helpers.ts";

const hello = { model: "m", messages: [{ role: "user" as const, content: "hi" }] };

const servers: { kind: ProviderKind; start: () => Promise<FakeLLM>; settings?: Partial<ProviderSettings> }[] = [
  { kind: "openai", start: startFakeOpenAI },
  { kind: "anthropic", start: startFakeAnthropic },
  { kind: "google", start: startFakeGemini },
  { kind: "bedrock", start: startFakeBedrock, settings: { region: "us-east-1", accessKey: "AKIDFAKE", secretKey: KEY } },
];

for (const { kind, start, settings } of servers) {
  describe(`${kind}`, () => {
    let fake: FakeLLM;
    beforeEach(async () => {
      await fake?.stop();
      fake = await start();
    });
    afterAll(() => fake?.stop());
    const model = (extra: { maxRetries?: number; timeoutSecs?: number } = {}) => modelFor({ kind, baseUrl: fake.url, ...settings, ...extra });

    test("429 then success is retried (non-streaming)", async () => {
      fake.script({ error: { status: 429, message: "slow down" } }, { text: "finally" });
      expect((await model().complete(hello)).content).toBe("finally");
      expect(fake.requests.length).toBe(2);
    });

    test("429 then success is retried (stream opening)", async () => {
      fake.script({ error: { status: 429, message: "slow down" } }, { text: "finally" });
      expect(assemble(await collect(model().stream(hello))).content).toBe("finally");
      expect(fake.requests.length).toBe(2);
    });

    test("500 is retried max_retries times, then fails with the provider's message", async () => {
      const boom = { error: { status: 500, message: "upstream exploded" } };
      fake.script(boom, boom, boom, boom);
      const err = await failure(() => model({ maxRetries: 2 }).complete(hello));
      expect(err).toBeInstanceOf(ProviderError);
      expect(err.message).toBe("provider 'p' error (HTTP 500): upstream exploded");
      expect(fake.requests.length).toBe(3);
    });

    test("max_retries 0 means one attempt", async () => {
      fake.script({ error: { status: 503, message: "unavailable" } });
      const err = await failure(() => model({ maxRetries: 0 }).complete(hello));
      expect(err.message).toBe("provider 'p' error (HTTP 503): unavailable");
      expect(fake.requests.length).toBe(1);
    });

    test("401 fails at once with the provider's message and exactly one request", async () => {
      fake.script({ error: { status: 401, message: "invalid x-api-key" } });
      const err = await failure(() => collect(model().stream(hello)));
      expect(err.message).toBe("provider 'p' refused the API key (HTTP 401): invalid x-api-key; check the credentials of [provider.p]");
      expect(fake.requests.length).toBe(1);
    });

    test("400 fails at once", async () => {
      fake.script({ error: { status: 400, message: "bad request: messages empty" } });
      const err = await failure(() => model().complete(hello));
      expect(err.message).toBe("provider 'p' error (HTTP 400): bad request: messages empty");
      expect(fake.requests.length).toBe(1);
    });

    test("a stream cut after its first chunk fails without a retry; the chunks before the cut were delivered", async () => {
      const cut = cutGate(); // after this reader has a chunk, or the reset could overtake them all
      fake.script({ text: "one two three four five six", cutAfterChunks: 4, cutWhen: cut.when }, { text: "must not be used" });
      const got: StreamChunk[] = [];
      const err = await failure(async () => {
        for await (const c of model().stream(hello)) {
          got.push(c);
          if (c.type === "text") cut.open();
        }
      });
      expect(err).toBeInstanceOf(ProviderError);
      expect(err.message).toContain(new URL(fake.url).host);
      expect(got.some((c) => c.type === "text")).toBe(true);
      expect(fake.requests.length).toBe(1);
    });

    test("a stream that fails before its first chunk is retried", async () => {
      // Cut before anything is sent: the client sees a reset while opening.
      fake.script({ text: "lost", cutAfterChunks: 0 }, { text: "second try" });
      expect(assemble(await collect(model().stream(hello))).content).toBe("second try");
      expect(fake.requests.length).toBe(2);
    });

    // The fake runs in this process, so its delay timer, set after the
    // attempt's deadline, always fires after it: the first attempt times out
    // however busy the machine. The deadline is generous so that an answer
    // sent at once always beats it, even under load.
    test("a slow non-streaming answer times out per attempt, and the timeout is retried", async () => {
      fake.script({ text: "late", delayMs: 5000 }, { text: "in time" });
      expect((await model({ timeoutSecs: 1 }).complete(hello)).content).toBe("in time");
      expect(fake.requests.length).toBe(2);
    });

    test("opening a stream times out with `stream connection timed out`", async () => {
      fake.script({ text: "late", delayMs: 5000 });
      const err = await failure(() => collect(model({ timeoutSecs: 0.2, maxRetries: 0 }).stream(hello)));
      expect(err.message).toStartWith("provider 'p': stream connection timed out");
      expect(fake.requests.length).toBe(1);
    });

    test("the timeout bounds only the opening of a stream", async () => {
      // The first chunk comes well within the timeout; the reader then holds
      // the stream open past it (the scenario's pause) and still gets the rest.
      fake.script({ text: "a b c d e f g h i j k l m n o p q r s t", cutAfterChunks: undefined });
      const m = model({ timeoutSecs: 1, maxRetries: 0 });
      const chunks: StreamChunk[] = [];
      for await (const c of m.stream(hello)) {
        if (chunks.push(c) === 1) await Bun.sleep(1200);
      }
      expect(assemble(chunks).content).toBe("a b c d e f g h i j k l m n o p q r s t");
      expect(fake.requests.length).toBe(1);
    });

    test("the API key never appears in an error message, even when the provider echoes it", async () => {
      fake.script({ error: { status: 401, message: `Incorrect API key provided: ${KEY}` } });
      const err = await failure(() => model().complete(hello));
      expect(err.message).not.toContain(KEY);
      expect(err.message).toContain("[redacted]");
    });

    test("a caller that stops reading early closes the stream; the next call works", async () => {
      fake.script({ text: "one two three four five" }, { text: "next" });
      const m = model();
      for await (const c of m.stream(hello)) {
        if (c.type === "text") break;
      }
      expect(assemble(await collect(m.stream(hello))).content).toBe("next");
    });

    test("an abort by the caller mid-stream ends it with an aborted error, not a short answer", async () => {
      fake.script({ text: "a b c d e f g h i j k l m n o p" });
      const controller = new AbortController();
      const err = await failure(async () => {
        for await (const c of model().stream({ ...hello, signal: controller.signal })) {
          if (c.type === "text") controller.abort();
        }
      });
      expect((err as ProviderError).kind).toBe("aborted");
    });

    test("an abort by the caller stops the call without retries", async () => {
      fake.script({ text: "late", delayMs: 5000 }, { text: "no" });
      const controller = new AbortController();
      // Abort while the request is at the server (not before it is sent: Bedrock's SDK takes a while to sign it).
      const call = failure(() => model().complete({ ...hello, signal: controller.signal }));
      await until(() => fake.requests.length === 1, { what: "the request to reach the fake server" });
      controller.abort();
      const err = await call;
      expect(err).toBeInstanceOf(ProviderError);
      expect((err as ProviderError).kind).toBe("aborted");
      expect(fake.requests.length).toBe(1);
    });
  });
}

describe("errors without a server", () => {
  test("connection refused is retried, then names the base URL", async () => {
    // A port that was just free: bind, note it, release.
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const url = `http://127.0.0.1:${server.port}/v1`;
    await server.stop(true);
    const err = await failure(() => modelFor({ kind: "openai", baseUrl: url }).complete(hello));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toContain(`cannot connect to ${url}`);
    expect((err as ProviderError).kind).toBe("connection");
    expect(err.message).not.toContain(KEY);
  });

  test("a non-JSON error body is reported as its first 200 characters and `...`", async () => {
    const body = "x".repeat(300);
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => new Response(body, { status: 502, headers: { "content-type": "text/html" } }),
    });
    try {
      const err = await failure(() => modelFor({ kind: "openai", baseUrl: `http://127.0.0.1:${server.port}/v1` }).complete(hello));
      expect(err.message).toBe(`provider 'p' error (HTTP 502): ${"x".repeat(200)}...`);
    } finally {
      await server.stop(true);
    }
  });
});

describe("backoff", () => {
  test("starts at 100 ms and doubles, each wait uniform in [backoff/2, backoff]", () => {
    expect(backoffDelay(0, 100, () => 0)).toBe(50);
    expect(backoffDelay(0, 100, () => 0.999999)).toBeCloseTo(100, 3);
    expect(backoffDelay(1, 100, () => 0)).toBe(100);
    expect(backoffDelay(1, 100, () => 0.999999)).toBeCloseTo(200, 3);
    expect(backoffDelay(2, 100, () => 0.5)).toBe(300);
    for (let i = 0; i < 100; i++) {
      const d = backoffDelay(3);
      expect(d).toBeGreaterThanOrEqual(400);
      expect(d).toBeLessThanOrEqual(800);
    }
  });

  test("waits between attempts follow the policy", async () => {
    const times: number[] = [];
    let calls = 0;
    const model = withRetry(
      {
        baseUrl: "http://test",
        complete: async () => {
          times.push(performance.now());
          calls++;
          throw new ProviderError("provider error (HTTP 503): busy", { kind: "http", status: 503 });
        },
        stream: async function* () {},
      },
      { maxRetries: 2, timeoutMs: 0, baseDelayMs: 40, random: () => 0 },
    );
    await failure(() => model.complete(hello));
    expect(calls).toBe(3);
    // Waits of 20 ms then 40 ms (lower ends of [20,40] and [40,80]); timers may run late, never early.
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(19);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(39);
  });
});

describe("errors inside a stream (Gemini error chunks, Bedrock exception events)", () => {
  for (const { kind, start, settings } of servers.filter((s) => s.kind === "google" || s.kind === "bedrock")) {
    test(`${kind}: after output, the run's error names the provider; what came before was delivered`, async () => {
      const fake = await start();
      try {
        fake.script({ text: "partial answer", streamError: { status: 500, message: "model broke mid-answer" } });
        const got: StreamChunk[] = [];
        const err = await failure(async () => {
          for await (const c of modelFor({ kind, baseUrl: fake.url, ...settings }).stream(hello)) got.push(c);
        });
        expect(err.message).toStartWith("provider 'p'");
        expect(err.message).toContain("model broke mid-answer");
        expect(assemble(got).content).toBe("partial answer");
        expect(fake.requests.length).toBe(1);
      } finally {
        await fake.stop();
      }
    });

    test(`${kind}: a throttling error before any output is retried`, async () => {
      const fake = await start();
      try {
        fake.script({ streamError: { status: 429, message: "slow down" } }, { text: "second time lucky" });
        expect(assemble(await collect(modelFor({ kind, baseUrl: fake.url, ...settings }).stream(hello))).content).toBe("second time lucky");
        expect(fake.requests.length).toBe(2);
      } finally {
        await fake.stop();
      }
    });
  }
});
