// config get|set|edit over GetConfig/SetConfig: the daemon validates and
// writes; secrets come back as <redacted> and stay as they are when sent back.
import type { Command } from "commander";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseKeyValue } from "../../config/schema-keys.ts";
import { withClient, type ConnectOptions } from "../connect.ts";
import { action } from "./run.ts";
import { warnUnknownKeysOf } from "../config-warnings.ts";

export function registerConfigCommands(program: Command, conn: () => ConnectOptions): void {
  const config = program.command("config").description("read or replace the daemon's config.toml (as JSON, secrets redacted)");

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
    .description("set one key (typed by the config schema), or replace the whole config with a JSON document")
    .argument("<key|file>", "dotted key, e.g. system.crab.model; or a JSON file, or - for standard input")
    .argument("[value]", "the key's value: text, a number, true/false, a list as a,b,c or a JSON array, a table as a JSON object")
    .addHelpText(
      "after",
      `
Comments and layout of config.toml are kept. Examples:
  crabtalk config set system.crab.model gpt-4o
  crabtalk config set system.crab.max_iterations 32
  crabtalk config set system.crab.thinking true
  crabtalk config set disabled.skills "draft,old"
  crabtalk config set system.budget.daily_usd 2.5
  crabtalk config set provider.p.prices '{"m":{"input":2.5,"output":10}}'
  crabtalk config set 'provider.p.prices."gpt-4.1".input' 2
  crabtalk config set config.json          # the whole config as JSON
Each key takes the type the config schema gives it; unknown keys already in
config.toml are reported on stderr.
With a JSON document, <redacted> values keep the stored secret.`,
    )
    .action(
      action(async (target: string, value?: string) => {
        if (value === undefined) {
          const text = target === "-" ? await Bun.stdin.text() : readFileSync(target, "utf8");
          await withClient(conn(), async (c) => {
            await c.setConfig(text);
            await warnUnknownKeysOf(c);
          });
          console.log("config saved and reloaded");
          return;
        }
        const { path, value: typed } = parseKeyValue(target, value);
        await withClient(conn(), async (c) => {
          const json = JSON.parse(await c.getConfig()) as Record<string, unknown>;
          let table = json;
          for (const part of path.slice(0, -1)) {
            const next = table[part];
            table = (table[part] = typeof next === "object" && next !== null && !Array.isArray(next) ? next : {}) as Record<string, unknown>;
          }
          table[path[path.length - 1]] = typed;
          await c.setConfig(JSON.stringify(json));
          await warnUnknownKeysOf(c);
        });
        console.log(`${target} = ${JSON.stringify(typed)}`);
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
            await warnUnknownKeysOf(client);
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
