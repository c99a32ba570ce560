// What `send` prints in a pipe and while it waits, through the real CLI and daemon.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { Client } from "../../src/protocol/client.ts";
import { MAIN } from "../support/daemon.ts";
import { startFakeSetup, type FakeSetup } from "./fake-setup.ts";

// Each test drives real processes step by step; `npx bun test` ignores bunfig's timeout.
setDefaultTimeout(30_000);

let s: FakeSetup;
beforeAll(async () => {
  s = await startFakeSetup();
});
afterAll(() => s.stop());

test("in a pipe, the texts of consecutive steps are separated by a newline", async () => {
  const look = { text: "Let me look.", toolCalls: [{ id: "c1", name: "bash", arguments: '{"command":"true"}' }] };
  s.fake.script(look, { text: "The directory is empty." });
  const r = await s.cli(["send", "--sender", "steps", "what is here?"]);
  expect(r).toMatchObject({ code: 0, stdout: "Let me look.\nThe directory is empty.\n" });
});

/** Starts a run for `sender` that waits on an ask_user question until answered. */
async function holdSession(client: Client, sender: string): Promise<{ session: bigint; done: Promise<void> }> {
  const questions = [{ question: "Go on?", header: "Go", options: [{ label: "yes", description: "" }] }];
  s.fake.script({ toolCalls: [{ id: "hold", name: "ask_user", arguments: JSON.stringify({ questions }) }] }, { text: "first done" });
  const events = client.stream({ agent: "crab", content: "first", sender })[Symbol.asyncIterator]();
  let session = 0n;
  for (;;) {
    const { value } = await events.next();
    if (value.event.case === "start") session = value.event.value.session;
    if (value.event.case === "askUser") break;
  }
  const done = (async () => {
    while (!(await events.next()).done);
  })();
  return { session, done };
}

test("a second send into a busy session says it is waiting, then answers", async () => {
  const holder = await s.daemon.client();
  const replier = await s.daemon.client();
  try {
    const { session, done } = await holdSession(holder, "busy");
    const second = Bun.spawn([process.execPath, MAIN, "send", "--sender", "busy", "second"], {
      env: { ...process.env, CRABTALK_HOME: s.daemon.home, NO_COLOR: "1" },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const stdout = new Response(second.stdout).text();
    // The first run is let go only once the second has said it waits.
    let stderr = "";
    const decoder = new TextDecoder();
    for await (const chunk of second.stderr) {
      stderr += decoder.decode(chunk, { stream: true });
      if (stderr.includes("\n")) break;
    }
    expect(stderr).toBe("crabtalk: waiting for the run in progress in this session\n");
    await replier.replyToAsk(session, "yes");
    await done;
    expect(await second.exited).toBe(0);
    expect(await stdout).toBe("ok\n");
  } finally {
    await holder.close();
    await replier.close();
  }
});

test("a send into an idle session says nothing about waiting", async () => {
  s.fake.script({ text: "quick", delayMs: 1500 });
  const r = await s.cli(["send", "--sender", "idle", "hello"]);
  expect(r).toMatchObject({ code: 0, stdout: "quick\n", stderr: "" });
});
