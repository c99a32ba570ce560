// A run's own tool sending into the run's session (docs/protocol.md "Runs"):
// the run waits for the tool and the tool would wait for the run, so the
// daemon answers 409 at once instead of letting it hang until the tool's
// timeout. Other sessions stay reachable from the same tool.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Client } from "../../src/protocol/client.ts";
import { MAIN } from "../support/daemon.ts";
import { startLlmDaemon, type LlmDaemon } from "../support/llm-daemon.ts";

let env: LlmDaemon;
let client: Client;
const cli = `${JSON.stringify(process.execPath)} ${JSON.stringify(MAIN)}`;
/** The bash timeout the model asks for: far beyond the deadline below, so a hang cannot pass for a refusal. */
const TOOL_TIMEOUT_SECS = 300;
/** Generous under load; the point is that it is not the tool's timeout. */
const REFUSAL_DEADLINE_MS = 10_000;
const SELF_WAIT = "is busy with the run whose tool sent this request";

beforeAll(async () => {
  env = await startLlmDaemon("openai");
  client = await env.daemon.client();
  // Unsandboxed, so its bash reaches the daemon over the Unix socket.
  await client.createAgent("selfish", JSON.stringify({ description: "sends to itself", sandbox: "off" }));
});
afterAll(async () => {
  await client?.close();
  await env?.stop();
});

/** Streams a run of `selfish` whose model calls bash once with `command`; returns bash's result and how long the tool step took. */
async function viaBash(command: string, request: { session?: bigint; newChat?: boolean }, ...after: { text: string }[]) {
  env.fake.script({ toolCalls: [{ id: "b1", name: "bash", arguments: JSON.stringify({ command, timeout: TOOL_TIMEOUT_SECS }) }] }, ...after, {
    text: "selfish done",
  });
  let output = "";
  let started = 0;
  let toolMs = -1;
  let session = 0n;
  for await (const e of client.stream({ agent: "selfish", content: "go", newChat: request.newChat ?? false, session: request.session })) {
    if (e.event.case === "start") session = e.event.value.session;
    if (e.event.case === "toolStart" && started === 0) started = performance.now();
    if (e.event.case === "toolResult") {
      output = e.event.value.output;
      toolMs = performance.now() - started;
    }
  }
  return { result: JSON.parse(output) as { stdout: string; stderr: string; exit_code: number }, toolMs, session };
}

test("crabtalk send into its own run's session (picked by agent and sender) is refused with 409 at once", async () => {
  const { result, toolMs, session } = await viaBash(`${cli} send --agent selfish "talk to myself"`, { newChat: true });
  expect(result.exit_code).toBe(1);
  // A person reads the message; the protocol's 409 is in the --json form (next test).
  expect(result.stderr).toContain(`session ${session} ${SELF_WAIT}`);
  expect(toolMs).toBeLessThan(REFUSAL_DEADLINE_MS);
  // The run itself went on to its end, and the session is free again.
  env.fake.script({ text: "yes" });
  expect((await client.send({ agent: "selfish", content: "still there?", session })).content).toBe("yes");
});

test("naming the session explicitly is refused the same way", async () => {
  env.fake.script({ text: "first answer" });
  const first = await client.send({ agent: "selfish", content: "open a session", newChat: true });
  const { result, toolMs } = await viaBash(`${cli} send --json --session ${first.session} "again"`, { session: first.session });
  expect(result.exit_code).toBe(1);
  const error = result.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l))
    .find((e) => e.type === "error");
  expect(error.code).toBe(409);
  expect(error.message).toContain(`session ${first.session} ${SELF_WAIT}`);
  expect(toolMs).toBeLessThan(REFUSAL_DEADLINE_MS);
});

test("the same tool may still run a new session", async () => {
  const { result } = await viaBash(`${cli} send --agent selfish --new "a fresh chat"`, { newChat: true }, { text: "fresh answer" });
  expect(result.stderr).toBe("");
  expect(result.exit_code).toBe(0);
  expect(result.stdout).toContain("fresh answer");
});
