// Cron through a real daemon (docs/protocol.md#cron, docs/cron.md): entries fire
// /<skill> into their session, persist in crons.toml, survive a restart.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "../../src/protocol/client.ts";
import { cleanup, startDaemon, tempHome, type TestDaemon } from "../support/daemon.ts";
import { daemonError } from "../support/daemon-error.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import type { FakeLLM } from "../support/fake-llm.ts";
import { providerConfig } from "../support/llm-daemon.ts";

let fake: FakeLLM;
let daemon: TestDaemon;
let client: Client;
let home: string;

const cronRequests = () => fake.requests.filter((r) => r.body?.stream === true && JSON.stringify(r.body.messages).includes('<skill name=\\"tick\\">'));

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  for (const end = Date.now() + ms; !cond(); ) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await Bun.sleep(25);
  }
}

beforeAll(async () => {
  fake = await startFakeOpenAI();
  home = tempHome();
  mkdirSync(join(home, "local/skills/tick"), { recursive: true });
  writeFileSync(join(home, "local/skills/tick/SKILL.md"), "---\nname: tick\ndescription: a periodic check\n---\n\nReport the time.\n");
  daemon = await startDaemon({ home, config: providerConfig("openai", fake) });
  client = await daemon.client();
});
afterAll(async () => {
  await client.close();
  await daemon.stop();
  await fake.stop();
  cleanup(home);
});

test("bad schedules, quiet times and sessions are refused", async () => {
  const r = await client.send({ agent: "crab", content: "hi", sender: "cron-bad" });
  expect((await daemonError(client.createCron({ schedule: "nope", skill: "tick", session: r.session }))).message).toStartWith("invalid cron schedule 'nope'");
  expect((await daemonError(client.createCron({ schedule: "* * * * *", skill: "tick", session: 9999n }))).code).toBe(404);
  expect(
    (await daemonError(client.createCron({ schedule: "* * * * *", skill: "tick", session: r.session, quietStart: "25:00", quietEnd: "07:00" }))).code,
  ).toBe(400);
  expect((await daemonError(client.deleteCron(77n))).message).toBe("cron 77 not found");
  expect(await client.listCrons()).toEqual([]);
});

test("an entry fires /<skill> into its session as sender cron; delete stops it", async () => {
  const r = await client.send({ agent: "crab", content: "start", sender: "cron-user" });
  const before = cronRequests().length;
  const created = await client.createCron({ schedule: "* * * * * *", skill: "tick", session: r.session });
  expect(created).toMatchObject({ schedule: "* * * * * *", skill: "tick", session: r.session, once: false, quietStart: "" });
  expect((await client.listCrons()).map((c) => c.id)).toEqual([created.id]);
  const saved = readFileSync(join(home, "crons.toml"), "utf8");
  expect(saved).toContain('skill = "tick"');
  expect(saved).toContain('sender = "cron-user"');
  await until(() => cronRequests().length >= before + 2);
  // Each firing is a run in that session: its history reaches the model.
  expect(JSON.stringify(cronRequests().at(-1)!.body.messages)).toContain("start");
  await client.deleteCron(created.id);
  await Bun.sleep(1200); // a firing already under way may still land
  const settled = cronRequests().length;
  await Bun.sleep(1500);
  expect(cronRequests().length).toBe(settled);
  expect(await client.listCrons()).toEqual([]);
});

test("once: fires a single time and deletes itself", async () => {
  const r = await client.send({ agent: "crab", content: "once please", sender: "cron-once" });
  const before = cronRequests().length;
  await client.createCron({ schedule: "* * * * * *", skill: "tick", session: r.session, once: true });
  await until(() => cronRequests().length === before + 1);
  await until(() => readFileSync(join(home, "crons.toml"), "utf8") === "");
  await Bun.sleep(1500);
  expect(cronRequests().length).toBe(before + 1);
  expect(await client.listCrons()).toEqual([]);
});

test("inside the quiet window an entry stays silent", async () => {
  const r = await client.send({ agent: "crab", content: "quiet", sender: "cron-quiet" });
  const now = new Date();
  const hhmm = (d: Date) => `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
  const start = hhmm(new Date(now.getTime() - 60_000));
  const end = hhmm(new Date(now.getTime() + 5 * 60_000));
  const before = cronRequests().length;
  const c = await client.createCron({ schedule: "* * * * * *", skill: "tick", session: r.session, quietStart: start, quietEnd: end });
  await Bun.sleep(2500);
  expect(cronRequests().length).toBe(before);
  await client.deleteCron(c.id);
});

test("entries survive a restart and find their session again by its file", async () => {
  const r = await client.send({ agent: "crab", content: "remember me across restarts", sender: "cron-restart" });
  await client.createCron({ schedule: "0 0 1 1 *", skill: "tick", session: r.session });
  await client.createCron({ schedule: "* * * * * *", skill: "tick", session: r.session });
  await client.close();
  expect(await daemon.stop()).toBe(0);
  expect(existsSync(join(home, "crons.toml"))).toBe(true);
  const before = cronRequests().length;
  daemon = await startDaemon({ home, config: providerConfig("openai", fake) });
  client = await daemon.client();
  const loaded = await client.listCrons();
  expect(loaded.map((c) => c.schedule)).toEqual(["0 0 1 1 *", "* * * * * *"]);
  await until(() => cronRequests().length > before);
  expect(JSON.stringify(cronRequests().at(-1)!.body.messages)).toContain("remember me across restarts");
  const next = await client.createCron({ schedule: "0 0 1 1 *", skill: "tick", session: (await client.sessions())[0].id });
  expect(next.id).toBe(loaded[1].id + 1n); // ids continue after the highest loaded
  for (const c of await client.listCrons()) await client.deleteCron(c.id);
}, 20_000); // stops and starts a daemon: slow on a loaded machine
