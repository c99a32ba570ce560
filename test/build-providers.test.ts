// The compiled binary carries every provider SDK: a daemon run from dist/crabtalk
// alone answers through the Gemini and Bedrock fakes (their SDKs are loaded
// from inside the executable, on first use).
import { expect, test } from "bun:test";
import { compiledBinary } from "./support/binary.ts";
import { runCli } from "./support/cli.ts";
import { cleanup, startDaemon, tempHome } from "./support/daemon.ts";
import { startFakeBedrock } from "./support/fake-bedrock.ts";
import { startFakeGemini } from "./support/fake-gemini.ts";
import { providerTable } from "./support/llm-daemon.ts";

test("the compiled binary answers through Gemini and Bedrock", async () => {
  const binary = await compiledBinary();
  const gemini = await startFakeGemini();
  const bedrock = await startFakeBedrock();
  const home = tempHome();
  const daemon = await startDaemon({
    home,
    command: [binary],
    config: `${providerTable("g", "google", gemini, ["gemini-fake"])}\n\n${providerTable("b", "bedrock", bedrock, ["nova-fake"])}\n\n[system.crab]\nmodel = "gemini-fake"\n`,
  });
  try {
    gemini.script({ text: "from gemini, compiled" });
    const g = await runCli(["send", "hi"], { home, command: [binary] });
    expect(g.stderr).toBe("");
    expect(g.stdout).toBe("from gemini, compiled\n");
    expect((await runCli(["models", "use", "nova-fake"], { home, command: [binary] })).code).toBe(0);
    bedrock.script({ text: "from bedrock, compiled" });
    const b = await runCli(["send", "--new", "hi"], { home, command: [binary] });
    expect(b.stderr).toBe("");
    expect(b.stdout).toBe("from bedrock, compiled\n");
  } finally {
    await daemon.stop();
    await gemini.stop();
    await bedrock.stop();
    cleanup(home);
  }
}, 120_000);
