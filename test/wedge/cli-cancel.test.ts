// `crabtalk cancel`, `crabtalk kill` and chat's Ctrl-C stop a run in progress
// in the daemon: the CLI as a user runs it, against a real daemon whose fake
// provider stalls mid-answer.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { MAIN } from "../support/daemon.ts";
import { startFakeSetup, type FakeSetup } from "../cli/fake-setup.ts";
import { until } from "../support/until.ts";

let s: FakeSetup;
beforeAll(async () => {
  s = await startFakeSetup();
});
afterAll(async () => {
  await s.stop();
});

/** Each check may start a CLI process, slow on a busy machine: a generous deadline. */
const waitFor = (what: string, check: () => boolean | Promise<boolean>) => until(check, { what, timeoutMs: 20_000 });

let answersBefore = 0;

/** The id of `sender`'s session once a run holds it and the stalled answer has begun. */
async function runningSession(sender: string): Promise<number> {
  let id: number | undefined;
  await waitFor(`a run of ${sender}`, async () => {
    if (s.fake.firstChunkSentAt.length <= answersBefore) return false;
    const sessions = JSON.parse((await s.cli(["sessions", "--json"])).stdout) as { id: number; created_by: string; active: boolean }[];
    id = sessions.find((x) => x.created_by === sender && x.active)?.id;
    return id !== undefined;
  });
  return id!;
}

function scriptStall(): void {
  answersBefore = s.fake.firstChunkSentAt.length;
  s.fake.script({ text: "words and then a stall", stallAfterChunks: 3 });
}

const stalled = (sender: string) => {
  scriptStall();
  return s.cli(["send", "--sender", sender, "go"]);
};

test("crabtalk cancel SESSION stops the run; the send reports it and the partial answer is kept", async () => {
  const sending = stalled("cli-cancel");
  const id = await runningSession("cli-cancel");
  const cancel = await s.cli(["cancel", String(id)]);
  expect(cancel.code).toBe(0);
  expect(cancel.stdout).toBe(`cancelled any run in progress in session ${id}\n`);
  const sent = await sending;
  expect(sent.code).toBe(1);
  expect(sent.stderr).toContain("run cancelled");
  await waitFor("the partial answer is on disk", () => s.sessionFiles("crab_cli-cancel_")[0].messages.some((m) => m.partial === "interrupted"));
  // Nothing to cancel any more: still fine. An unknown session: 404.
  expect((await s.cli(["cancel", String(id)])).code).toBe(0);
  const unknown = await s.cli(["cancel", "999999"]);
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toBe("crabtalk: session 999999 not found\n");
});

test("crabtalk kill SESSION stops the run and closes the session", async () => {
  const sending = stalled("cli-kill");
  const id = await runningSession("cli-kill");
  expect((await s.cli(["kill", String(id)])).code).toBe(0);
  const sent = await sending;
  expect(sent.code).toBe(1);
  expect(sent.stderr).toContain(`session ${id} was killed`);
  const ids = (JSON.parse((await s.cli(["sessions", "--json"])).stdout) as { id: number }[]).map((x) => x.id);
  expect(ids).not.toContain(id);
});

test("Ctrl-C in chat cancels the answer in the daemon; chat goes on, and Ctrl-C at the prompt exits", async () => {
  scriptStall();
  const proc = Bun.spawn([process.execPath, MAIN, "chat", "--sender", "cli-ctrl-c"], {
    env: { ...process.env, CRABTALK_HOME: s.daemon.home, NO_COLOR: "1" },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  let printed = "";
  const stdout = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stdout) printed += decoder.decode(chunk, { stream: true });
    return printed;
  })();
  const stderr = new Response(proc.stderr).text();
  proc.stdin.write("go\n");
  await proc.stdin.flush();
  await runningSession("cli-ctrl-c");
  proc.kill("SIGINT");
  await waitFor("the partial answer is on disk", () => s.sessionFiles("crab_cli-ctrl-c_")[0].messages.some((m) => m.partial === "interrupted"));
  proc.stdin.write("next\n");
  await proc.stdin.flush();
  await waitFor("the next answer", () => s.sessionFiles("crab_cli-ctrl-c_")[0].messages.some((m) => m.content === "ok"));
  // Saved is not yet ended: a Ctrl-C before chat has the stream's end would cancel that answer, not exit.
  await waitFor("chat back at its prompt after the answer", () => printed.endsWith("ok\n"));
  proc.kill("SIGINT");
  expect(await proc.exited).toBe(0);
  expect(await stderr).toContain("answer cancelled; what it had said is kept in the session as interrupted");
  expect(await stdout).toEndWith("ok\n");
  const roles = s.sessionFiles("crab_cli-ctrl-c_")[0].messages.map((m) => [m.role, m.partial ?? ""]);
  expect(roles).toEqual([
    ["user", ""],
    ["assistant", "interrupted"],
    ["user", ""],
    ["assistant", ""],
  ]);
});
