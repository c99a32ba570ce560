// The home is its owner's alone: directories 0700, files 0600, also for a home
// an older version left open to other users.
import { afterEach, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, MAIN, startDaemon, tempHome } from "../support/daemon.ts";
import { startFakeOpenAI } from "../support/fake-openai.ts";
import { providerConfig } from "../support/llm-daemon.ts";

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) cleanup(home);
});

const mode = (path: string) => statSync(path).mode & 0o777;

test("a fresh home: home, sessions/, memory/, logs/ 0700, every file the daemon wrote 0600", async () => {
  const home = join(tempHome(), "home");
  homes.push(join(home, ".."));
  const daemon = await startDaemon({ home });
  for (const dir of ["", "sessions", "memory", "logs", "run"]) expect(mode(join(home, dir))).toBe(0o700);
  for (const file of ["config.toml", "logs/daemon.log", "run/crabtalk.port", "run/crabtalk.pid"]) expect(mode(join(home, file))).toBe(0o600);
  expect(mode(daemon.socket)).toBe(0o600);
  expect(await daemon.stop()).toBe(0);
});

test("a home left open by an older version is closed at start", async () => {
  const home = tempHome();
  homes.push(home);
  for (const dir of ["sessions", "logs", "memory"]) mkdirSync(join(home, dir), { mode: 0o755 });
  writeFileSync(join(home, "config.toml"), "", { mode: 0o644 });
  writeFileSync(join(home, "logs/daemon.log"), "", { mode: 0o644 });
  writeFileSync(join(home, "sessions/crab_user_1.jsonl"), '{"agent":"crab","created_by":"user"}\n', { mode: 0o644 });
  for (const path of ["", "sessions", "logs", "memory"]) chmodSync(join(home, path), 0o755);
  const daemon = await startDaemon({ home });
  for (const dir of ["", "sessions", "memory", "logs"]) expect(mode(join(home, dir))).toBe(0o700);
  for (const file of ["config.toml", "logs/daemon.log", "sessions/crab_user_1.jsonl"]) expect(mode(join(home, file))).toBe(0o600);
  expect(readdirSync(join(home, "sessions"))).toEqual(["crab_user_1.jsonl"]);
  expect(await daemon.stop()).toBe(0);
});

test("a tool's files get the umask the daemon was started with, not the daemon's 077", async () => {
  const fake = await startFakeOpenAI();
  const home = tempHome();
  const work = tempHome("crabtalk-umask-work-");
  homes.push(home, work);
  // The daemon is started under umask 022, as a login shell would; it keeps its own files 0600 all the same.
  const daemon = await startDaemon({
    home,
    config: providerConfig("openai", fake),
    command: ["/bin/sh", "-c", `umask 022 && exec "$0" "$@"`, process.execPath, MAIN],
  });
  try {
    fake.script({ toolCalls: [{ id: "u1", name: "bash", arguments: JSON.stringify({ command: "touch made && stat -c %a made" }) }] }, { text: "done" });
    const client = await daemon.client();
    await client.send({ agent: "crab", content: "make a file", sender: "umask", cwd: work });
    await client.close();
    expect(mode(join(work, "made"))).toBe(0o644);
    for (const file of readdirSync(join(home, "sessions"))) expect(mode(join(home, "sessions", file))).toBe(0o600);
  } finally {
    await daemon.stop();
    await fake.stop();
  }
});
