// A client that builds frames by hand from docs/protocol.md gets Pong, DaemonStats
// and a redacted config over both the Unix socket and TCP.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cleanup, startDaemon, type TestDaemon } from "../support/daemon.ts";
import { CLIENT, SERVER, RawConnection, frame, lenField, parseFields, serverVariant, text } from "../support/raw-proto.ts";

const SECRET = "sk-test-very-secret-value-123";
let daemon: TestDaemon;

beforeAll(async () => {
  daemon = await startDaemon({
    config: `
[provider.openai]
api_key = "${SECRET}"
models = ["gpt-4o"]

[provider.local]
kind = "ollama"
base_url = "http://127.0.0.1:11434"
api_key = "\${LOCAL_KEY}"
models = ["llama3"]

[system.crab]
model = "gpt-4o"

[env]
GITHUB_TOKEN = "ghp-another-secret"
`,
  });
});

afterAll(async () => {
  await daemon.stop();
  cleanup(daemon.home);
});

for (const transport of ["uds", "tcp"] as const) {
  describe(`hand-encoded frames over ${transport}`, () => {
    const open = () => RawConnection.open(transport === "uds" ? { path: daemon.socket } : { port: daemon.port });

    test("Ping is answered with Pong", async () => {
      const conn = await open();
      conn.write(frame(lenField(CLIENT.ping, [])));
      const reply = await conn.readFrame();
      expect(Array.from(reply!)).toEqual([0x12, 0x00]); // ServerMessage{pong = {}}
      conn.destroy();
    });

    test("GetStats is answered with DaemonStats", async () => {
      const conn = await open();
      conn.write(frame(lenField(CLIENT.getStats, [])));
      const v = serverVariant((await conn.readFrame())!);
      expect(v.tag).toBe(SERVER.stats);
      const f = parseFields(v.bytes!);
      expect(f.find((x) => x.tag === 3)?.int).toBe(1n); // registered_agents: crab
      expect(text(f.find((x) => x.tag === 4)?.bytes)).toBe("gpt-4o"); // active_model
      const uptime = f.find((x) => x.tag === 1)?.int ?? 0n;
      expect(uptime >= 0n && uptime < 600n).toBe(true);
      conn.destroy();
    });

    test("GetConfig returns the config as JSON with secrets redacted", async () => {
      const conn = await open();
      conn.write(frame(lenField(CLIENT.getConfig, [])));
      const payload = (await conn.readFrame())!;
      const v = serverVariant(payload);
      expect(v.tag).toBe(SERVER.config);
      const json = JSON.parse(text(parseFields(v.bytes!)[0].bytes));
      expect(json.provider.openai.api_key).toBe("<redacted>");
      expect(json.provider.local.api_key).toBe("${LOCAL_KEY}");
      expect(json.env.GITHUB_TOKEN).toBe("<redacted>");
      expect(json.system.crab.model).toBe("gpt-4o");
      expect(json.disabled).toEqual({ providers: [], mcps: [], skills: [] });
      const raw = new TextDecoder().decode(payload);
      expect(raw).not.toContain(SECRET);
      expect(raw).not.toContain("ghp-another-secret");
      conn.destroy();
    });

    test("several requests on one connection are answered in order", async () => {
      const conn = await open();
      conn.write([...frame(lenField(CLIENT.ping, [])), ...frame(lenField(CLIENT.getStats, [])), ...frame(lenField(CLIENT.ping, []))]);
      const tags = [];
      for (let i = 0; i < 3; i++) tags.push(serverVariant((await conn.readFrame())!).tag);
      expect(tags).toEqual([SERVER.pong, SERVER.stats, SERVER.pong]);
      conn.destroy();
    });
  });
}

test("secrets never reach the daemon log or stderr", async () => {
  const { readFileSync } = await import("node:fs");
  expect(await daemon.stop()).toBe(0);
  const stderr = await daemon.stderr();
  expect(stderr).toContain("listening");
  expect(stderr).not.toContain(SECRET);
  const log = readFileSync(`${daemon.home}/logs/daemon.log`, "utf8");
  expect(log.length).toBeGreaterThan(0);
  expect(log).not.toContain(SECRET);
});
