// config get|set|edit over GetConfig/SetConfig: the daemon validates and
// writes; secrets come back as <redacted> and stay as they are when sent back.
import type { Command } from "commander";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withClient, type ConnectOptions } from "../connect.ts";
import { action } from "./run.ts";

export function registerConfigCommands(program: Command, conn: () => ConnectOptions): void {
  const config = program
    .command("config")
    .description("read or replace the daemon's config.toml (as JSON, secrets redacted)");

  config
    .command("get")
    .description("print the effective config as JSON; secrets show as <redacted>")
    .argument("[key]", "dotted path to print only part of it, e.g. system.crab.model")
    .action(
      action(async (key?: string) => {
        const json = JSON.parse(await withClient(conn(), (c) => c.getConfig())) as unknown;
        const value = key ? pick(json, key) : json;
        if (value === undefined) throw new Error(`no config key '${key}'`);
        console.log(typeof value === "string" ? value : JSON.stringify(value, null, 2));
      }),
    );

  config
    .command("set")
    .description("replace the whole config with a JSON document; <redacted> values keep the stored secret")
    .argument("<file>", "JSON file, or - to read standard input")
    .action(
      action(async (file: string) => {
        const text = file === "-" ? await Bun.stdin.text() : readFileSync(file, "utf8");
        await withClient(conn(), (c) => c.setConfig(text));
        console.log("config saved and reloaded");
      }),
    );

  config
    .command("edit")
    .description("open the config as JSON in $VISUAL/$EDITOR, then save it through the daemon")
    .action(
      action(async () => {
        await withClient(conn(), async (client) => {
          const current = JSON.stringify(JSON.parse(await client.getConfig()), null, 2) + "\n";
          const dir = mkdtempSync(join(tmpdir(), "crabtalk-config-"));
          const file = join(dir, "config.json");
          try {
            writeFileSync(file, current, { mode: 0o600 });
            const editor = process.env.VISUAL || process.env.EDITOR || "vi";
            const proc = Bun.spawn(["sh", "-c", `${editor} "$1"`, "editor", file], {
              stdio: ["inherit", "inherit", "inherit"],
            });
            if ((await proc.exited) !== 0) throw new Error(`editor '${editor}' failed; nothing saved`);
            const edited = readFileSync(file, "utf8");
            if (edited === current) {
              console.log("no changes");
              return;
            }
            await client.setConfig(edited);
            console.log("config saved and reloaded");
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        });
      }),
    );
}

function pick(value: unknown, path: string): unknown {
  let cur: unknown = value;
  for (const part of path.split(".")) {
    if (typeof cur !== "object" || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}
