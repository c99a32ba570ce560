// doctor: check the installation, the home, the config and the daemon.
import type { Command } from "commander";
import { homeOf } from "../daemon-control.ts";
import { runChecks, type CheckResult } from "../doctor/checks.ts";
import { action } from "./run.ts";

const MARK: Record<CheckResult["outcome"], string> = { ok: "✓", fail: "✗", info: "·" };

export function registerDoctorCommand(program: Command): void {
  program
    .command("doctor")
    .description("check the binary, PATH, home, config.toml, provider keys, the service and the daemon; say how to fix each problem")
    .option("--online", "also check that each provider's endpoint answers (the only check that uses the network)")
    .option("--json", "print the checks as JSON")
    .addHelpText("after", "\nExit status: 0 when every check passes, 1 when any fails.")
    .action(
      action(async (opts: { online?: boolean; json?: boolean }) => {
        const results = await runChecks(homeOf(), process.env, { online: opts.online });
        const failed = results.filter((r) => r.outcome === "fail").length;
        if (opts.json) console.log(JSON.stringify({ ok: failed === 0, checks: results }));
        else {
          for (const r of results) console.log(`${MARK[r.outcome]} ${r.what}${r.fix ? `\n    fix: ${r.fix}` : ""}`);
          console.log(failed === 0 ? "\nno problems found" : `\n${failed} problem${failed === 1 ? "" : "s"} found`);
        }
        return failed === 0 ? 0 : 1;
      }),
    );
}
