// What one streamed request costs in CPU, in layers, at 100 concurrent
// requests against the instant fake OpenAI server (in this process; the
// requests are made from a child process whose CPU is measured alone):
//   fetch   — Bun's fetch + reading the SSE body (the runtime floor);
//   sdk     — the openai SDK's chat.completions.create(stream) iterated (what
//             the adapter was built on until issue 23);
//   adapter — the daemon's adapter (src/model/openai/adapter.ts), which speaks
//             HTTP itself.
// Same request in each (a daemon-sized body: system prompt, 9 tools, a short
// history), modes interleaved round by round, medians.
// Run: npx bun bench/sdk-turn.ts [rounds]
import { startFakeOpenAI } from "../test/support/fake-openai.ts";
import { median, round } from "./stats.ts";

const ROUNDS = Number(process.argv[2] ?? 20);
const K = 100;
const MODES = ["fetch", "sdk", "adapter"] as const;

if (process.env.CRABTALK_SDK_TURN_URL) await child(process.env.CRABTALK_SDK_TURN_URL);
else await parent();

async function parent() {
  const fake = await startFakeOpenAI();
  try {
    const proc = Bun.spawn([process.execPath, import.meta.path], {
      env: { ...process.env, CRABTALK_SDK_TURN_URL: fake.url, CRABTALK_SDK_TURN_ROUNDS: String(ROUNDS) },
      stdout: "pipe",
      stderr: "inherit",
    });
    const out = await new Response(proc.stdout).text();
    if ((await proc.exited) !== 0) throw new Error("sdk-turn child failed");
    const perRequest: Record<string, number[]> = JSON.parse(out);
    const m = Object.fromEntries(MODES.map((mode) => [mode, median(perRequest[mode])]));
    console.log(`CPU per streamed request at ${K} concurrent (median of ${ROUNDS} rounds; the requesting process only)`);
    for (const mode of MODES)
      console.log(
        `${mode.padEnd(8)} ${round(m[mode] * 1000, 0)
          .toString()
          .padStart(6)} µs`,
      );
    console.log(`SDK over fetch: ${round((m.sdk - m.fetch) * 1000, 0)} µs; the adapter over fetch: ${round((m.adapter - m.fetch) * 1000, 0)} µs`);
  } finally {
    fake.stop();
  }
}

function request() {
  const system = "You are a small, sturdy and resourceful companion. ".repeat(45);
  const tools = Array.from({ length: 9 }, (_, i) => ({
    name: `tool_${i}`,
    description: "Does one thing to the user's files and answers with JSON. ".repeat(3),
    parameters: {
      type: "object",
      properties: Object.fromEntries(["path", "content", "pattern", "limit"].map((p) => [p, { type: "string", description: `the ${p} to use` }])),
      required: ["path"],
      additionalProperties: false,
    },
  }));
  const messages = Array.from({ length: 10 }, (_, i) => ({ role: i % 2 ? ("assistant" as const) : ("user" as const), content: i % 2 ? "ok" : "hi" }));
  return { model: "fake-model", system, tools, messages };
}

async function child(url: string) {
  const rounds = Number(process.env.CRABTALK_SDK_TURN_ROUNDS ?? ROUNDS);
  const { default: OpenAI } = await import("openai");
  const { createOpenAIAdapter } = await import("../src/model/openai/adapter.ts");
  const { toChatRequest } = await import("../src/model/openai/request.ts");
  const req = request();
  const sdk = new OpenAI({ apiKey: "bench", baseURL: url, maxRetries: 0 });
  const adapter = createOpenAIAdapter({ name: "fake", kind: "openai", apiKey: "bench", baseUrl: url, models: ["fake-model"] });
  const body = { ...toChatRequest(req), stream: true as const, stream_options: { include_usage: true } };
  const one: Record<(typeof MODES)[number], () => Promise<void>> = {
    fetch: async () => {
      const res = await fetch(`${url}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer bench" },
        body: JSON.stringify(body),
      });
      for await (const _ of res.body!) {
        // read to the end
      }
    },
    sdk: async () => {
      for await (const _ of await sdk.chat.completions.create(body)) {
        // every chunk parsed
      }
    },
    adapter: async () => {
      for await (const _ of adapter.stream(req)) {
        // every chunk converted
      }
    },
  };
  const perRequest: Record<string, number[]> = { fetch: [], sdk: [], adapter: [] };
  for (let r = -2; r < rounds; r++) {
    for (const mode of MODES) {
      const before = process.cpuUsage();
      await Promise.all(Array.from({ length: K }, one[mode]));
      const used = process.cpuUsage(before);
      if (r >= 0) perRequest[mode].push((used.user + used.system) / 1000 / K);
    }
  }
  console.log(JSON.stringify(perRequest));
}
