// `crabtalk doctor`: the tool sandbox as the config asks for it and as this
// machine offers it (docs/security.md). Probed here, with this shell's PATH:
// a service may see another PATH.
import type { DaemonConfig } from "../../config/schema.ts";
import type { CheckResult } from "./checks.ts";

type Env = Record<string, string | undefined>;

export async function sandboxCheck(config: DaemonConfig | undefined, env: Env): Promise<CheckResult> {
  const { BWRAP_INSTALL_HINT, describeAvailability, probeSandbox } = await import("../../base/sandbox-probe.ts");
  const mode = config?.system.tools.sandbox ?? "auto";
  if (mode === "off") return { outcome: "info", what: 'tool sandbox off ([system.tools] sandbox = "off"): tools run unsandboxed' };
  const found = probeSandbox(env);
  const what = `${describeAvailability(found)} (sandbox = "${mode}")`;
  if (found.kind !== "none") return { outcome: "ok", what };
  if (mode === "required") return { outcome: "fail", what: `${what}: tools refuse to run`, fix: BWRAP_INSTALL_HINT };
  return { outcome: "info", what: `${what}: tools run unsandboxed; ${BWRAP_INSTALL_HINT}` };
}
