// A real daemon whose only provider is a fake OpenAI-compatible server, and
// the CLI pointed at it: what the client command tests run against.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, startDaemon, type TestDaemon } from "../support/daemon.ts";
import { runCli, type CliResult } from "../support/cli.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import { isTitleRequest, type FakeLLM } from "../support/fake-llm.ts";

export interface FakeSetup {
  fake: FakeLLM;
  daemon: TestDaemon;
  cli(args: string[], stdin?: string, env?: Record<string, string>): Promise<CliResult>;
  /** The last user message the model saw in its latest (non-title) request. */
  lastUserMessage(): string;
  /** The latest non-title request body, as JSON text. */
  lastChatBody(): string;
  /** Session files whose names start with `prefix`, and their message lines (meta excluded). */
  sessionFiles(prefix: string): { name: string; meta: Record<string, unknown>; messages: Record<string, unknown>[] }[];
  stop(): Promise<void>;
}

/** `extra` is appended to the config (whole tables). */
export async function startFakeSetup(extra = ""): Promise<FakeSetup> {
  const fake = await startFakeOpenAI();
  const daemon = await startDaemon({
    config: `[provider.fake]
api_key = "test-key"
base_url = "${fake.url}"
models = ["fake-model"]

[system.crab]
model = "fake-model"
${extra}`,
  });
  return {
    fake,
    daemon,
    cli: (args, stdin, env) => runCli(args, { home: daemon.home, stdin, env }),
    lastChatBody() {
      return JSON.stringify(fake.requests.filter((r) => !isTitleRequest(r.body)).at(-1)?.body ?? null);
    },
    lastUserMessage() {
      const chats = fake.requests.filter((r) => !isTitleRequest(r.body));
      const messages: { role: string; content: string }[] = chats.at(-1)?.body.messages ?? [];
      return messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
    },
    sessionFiles(prefix) {
      const dir = join(daemon.home, "sessions");
      // A background title job may rename a file between listing and reading it: list again.
      for (let attempt = 0; ; attempt++) {
        try {
          return readdirSync(dir)
            .filter((name) => name.startsWith(prefix) && name.endsWith(".jsonl"))
            .sort()
            .map((name) => {
              const lines = readFileSync(join(dir, name), "utf8").split("\n").filter(Boolean);
              return { name, meta: JSON.parse(lines[0]), messages: lines.slice(1).map((l) => JSON.parse(l)) };
            });
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== "ENOENT" || attempt >= 20) throw err;
        }
      }
    },
    async stop() {
      await daemon.stop();
      await fake.stop();
      cleanup(daemon.home);
    },
  };
}
