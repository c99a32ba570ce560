// `crabtalk pull|rm|packages|search`: hub packages (docs/packages.md).
import { resolve } from "node:path";
import type { Command } from "commander";
import type { HubEvent } from "../../protocol/gen/crabtalk_pb.ts";
import { withClient, type ConnectOptions } from "../connect.ts";
import { printHubStream } from "../hub-progress.ts";
import { formatTable, oneLine } from "../table.ts";
import { action } from "./run.ts";

const DESCRIPTION_MAX = 60;

/**
 * An install of a package already there is one documented step ("already
 * installed, …", docs/protocol.md) and a reload: the command then says that
 * alone, once, instead of those steps and "installed".
 */
async function* quietWhenInstalled(events: AsyncIterable<HubEvent>, seen: { alreadyInstalled: boolean }): AsyncGenerator<HubEvent> {
  for await (const e of events) {
    if (e.event.case === "step" && e.event.value.message.startsWith("already installed")) seen.alreadyInstalled = true;
    if (seen.alreadyInstalled && e.event.case === "step") continue;
    yield e;
  }
}

export function registerPackageCommands(program: Command, conn: () => ConnectOptions): void {
  program
    .command("pull")
    .description("install a package from the hub: its skills, agents, MCP servers and commands")
    .argument("<scope/name>", "package id, as crabtalk search shows it")
    .option("--force", "reinstall when already installed")
    .option("--branch <branch>", "hub branch to read the manifest from")
    .option("--path <dir>", "read the manifest from this local hub directory instead of the hub")
    .addHelpText(
      "after",
      `
An installed package is left as it is (the command says so); --force reinstalls it.
Exit codes: 0 installed (or already installed), 1 failed (nothing was installed), 2 daemon unreachable.

Examples:
  crabtalk pull microsoft/playwright
  crabtalk pull my/tools --path ./my-hub`,
    )
    .action(
      action(async (id: string, opts: { force?: boolean; branch?: string; path?: string }) => {
        const seen = { alreadyInstalled: false };
        const error = await withClient(conn(), (c) =>
          printHubStream(
            quietWhenInstalled(
              c.installPackage({ package: id, force: Boolean(opts.force), branch: opts.branch ?? "", path: opts.path ? resolve(opts.path) : "" }),
              seen,
            ),
          ),
        );
        if (error) throw new Error(error);
        console.log(seen.alreadyInstalled ? `${id} is already installed (crabtalk pull --force ${id} reinstalls it)` : `installed ${id}`);
      }),
    );

  program
    .command("rm")
    .description("uninstall a package: its manifest, cached repository, commands and services")
    .argument("<scope/name>", "installed package id (crabtalk packages)")
    .action(
      action(async (id: string) => {
        const error = await withClient(conn(), (c) => printHubStream(c.uninstallPackage(id)));
        if (error) throw new Error(error);
        console.log(`removed ${id}`);
      }),
    );

  program
    .command("packages")
    .description("list the installed packages")
    .action(
      action(async () => {
        const list = await withClient(conn(), (c) => c.listPackages());
        if (list.length === 0) return void console.log("no packages installed (find some with crabtalk search)");
        console.log(
          formatTable(
            ["PACKAGE", "DESCRIPTION"],
            list.map((p) => [p.name, oneLine(p.description, DESCRIPTION_MAX)]),
          ),
        );
      }),
    );

  program
    .command("search")
    .description("search the hub by name, description or keyword (all packages without a query)")
    .argument("[query]", "case-insensitive text", "")
    .action(
      action(async (query: string) => {
        const list = await withClient(conn(), (c) => c.searchHub(query));
        if (list.length === 0) return void console.log(query ? `no package matches '${query}'` : "the hub is empty");
        console.log(
          formatTable(
            ["PACKAGE", "INSTALLED", "DESCRIPTION"],
            list.map((p) => [p.name, p.installed ? "yes" : "", oneLine(p.description, DESCRIPTION_MAX)]),
          ),
        );
      }),
    );
}
