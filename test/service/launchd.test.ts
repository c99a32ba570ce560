// `crabtalk start` with launchd (CRABTALK_SERVICE_MANAGER=launchd): a fake
// launchctl first on PATH records its calls and starts ProgramArguments.
import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MAIN, cleanup, tempHome } from "../support/daemon.ts";
import { runCli } from "../support/cli.ts";
import { fakeServiceManager } from "../support/fake-service-manager.ts";

const LABEL = "ai.crabtalk.crabtalk";
const userHome = tempHome("crabtalk-user-");
afterAll(() => cleanup(userHome));

test("start writes the agent plist and bootstraps it in the user's GUI domain; stop boots it out and disables it", async () => {
  // The default home (~/.crabtalk): no CRABTALK_HOME in the plist then.
  const home = join(userHome, ".crabtalk");
  const sm = fakeServiceManager();
  const env = sm.env({ HOME: userHome, CRABTALK_SERVICE_MANAGER: "launchd" });
  const cli = (args: string[]) => runCli(args, { home, env });
  const plistPath = join(userHome, "Library/LaunchAgents", `${LABEL}.plist`);
  const uid = process.getuid!();
  try {
    const started = await cli(["start"]);
    expect(started.stderr).toBe("");
    expect(started.code).toBe(0);
    expect(started.stdout).toContain(`runs as a launchd agent: ${plistPath}`);

    const plist = readFileSync(plistPath, "utf8");
    expect(plist).toContain(`<key>Label</key>\n\t<string>${LABEL}</string>`);
    expect(plist).toContain(
      `<key>ProgramArguments</key>\n\t<array>\n\t\t<string>${process.execPath}</string>\n\t\t<string>${MAIN}</string>\n\t\t<string>daemon</string>\n\t</array>`,
    );
    expect(plist).toContain(`<key>WorkingDirectory</key>\n\t<string>${userHome}</string>`);
    expect(plist).toContain(`<key>PATH</key>\n\t\t<string>${env.PATH}</string>`);
    expect(plist).not.toContain("CRABTALK_HOME");
    expect(plist).toContain("<key>RunAtLoad</key>\n\t<true/>");
    expect(plist).toContain("<key>KeepAlive</key>");
    expect(plist).toContain(`<key>StandardOutPath</key>\n\t<string>${home}/logs/daemon.out</string>`);
    expect(plist).toContain(`<key>StandardErrorPath</key>\n\t<string>${home}/logs/daemon.out</string>`);
    // launchd's own tools (plutil) are macOS-only; Python's plistlib is a strict
    // parser of the same XML format, so the file is read back whole by it.
    const parsed = Bun.spawnSync(["python3", "-c", "import json,plistlib,sys; print(json.dumps(plistlib.load(open(sys.argv[1],'rb'))))", plistPath]);
    expect(parsed.stderr.toString()).toBe("");
    const dict = JSON.parse(parsed.stdout.toString());
    expect(dict.Label).toBe(LABEL);
    expect(dict.ProgramArguments).toEqual([process.execPath, MAIN, "daemon"]);
    expect(dict.EnvironmentVariables.PATH).toBe(env.PATH);
    expect(dict.RunAtLoad).toBe(true);

    expect(sm.calls()).toContainEqual(["enable", `gui/${uid}/${LABEL}`]);
    expect(sm.calls()).toContainEqual(["bootstrap", `gui/${uid}`, plistPath]);
    expect((await cli(["ping"])).code).toBe(0);
    expect((await cli(["status"])).stdout).toContain(`run by:        launchd agent ${plistPath}`);

    expect((await cli(["stop"])).code).toBe(0);
    expect(sm.calls()).toContainEqual(["bootout", `gui/${uid}/${LABEL}`]);
    expect(sm.calls()).toContainEqual(["disable", `gui/${uid}/${LABEL}`]);
    expect((await cli(["ping"])).code).toBe(2);
  } finally {
    await cli(["stop"]);
  }
}, 30_000);
