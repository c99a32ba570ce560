// Service definitions rendered from templates, in one place: a systemd user
// unit, a launchd agent plist, and the schtasks arguments of a logon task.
import { MEMORY_VALUE, type ServiceSpec } from "./spec.ts";

function refuseLineBreak(value: string): void {
  if (/[\n\r\0]/.test(value)) throw new Error(`cannot put a line break in a systemd unit: ${JSON.stringify(value)}`);
}

/**
 * A value inside double quotes, for the settings systemd splits into words
 * (`ExecStart=`, `Environment=`): `\` and `"` escaped, `%` is a specifier,
 * `$` expands in ExecStart.
 */
function unitQuote(value: string, forExec = false): string {
  refuseLineBreak(value);
  let v = value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/%/g, "%%");
  if (forExec) v = v.replace(/\$/g, "$$$$");
  return `"${v}"`;
}

/**
 * A bare value for the settings systemd takes whole (`WorkingDirectory=`,
 * `Description=`): quotes would be kept as part of the value, so only `%`
 * is escaped. Whitespace at either end would be trimmed and a trailing `\`
 * continues the line, so both are refused rather than silently changed.
 */
function unitBare(value: string): string {
  refuseLineBreak(value);
  if (value !== value.trim() || value.endsWith("\\")) {
    throw new Error(`cannot put ${JSON.stringify(value)} in a systemd unit: it starts or ends with a space or a backslash`);
  }
  return value.replace(/%/g, "%%");
}

/** `WorkingDirectory=` takes a bare absolute path (systemd.exec(5)). */
function unitPath(path: string): string {
  if (!path.startsWith("/")) throw new Error(`a systemd unit needs an absolute working directory, not ${JSON.stringify(path)}`);
  return unitBare(path);
}

export function checkMemoryValue(key: string, value: string): string {
  if (!MEMORY_VALUE.test(value)) {
    throw new Error(`${key} = "${value}": use bytes with K/M/G/T (e.g. "512M"), a percentage ("50%") or "infinity"`);
  }
  return value;
}

const DAEMON_ORIGIN = "Written by `crabtalk start`; `crabtalk stop` disables it, `crabtalk uninstall` removes it.";

export function systemdUnit(spec: ServiceSpec): string {
  const lines = [
    `# ${spec.origin ?? DAEMON_ORIGIN}`,
    "[Unit]",
    `Description=${unitBare(spec.description)}`,
    "",
    "[Service]",
    "Type=simple",
    `ExecStart=${spec.argv.map((a) => unitQuote(a, true)).join(" ")}`,
    `WorkingDirectory=${unitPath(spec.workingDirectory)}`,
    ...Object.entries(spec.env).map(([k, v]) => `Environment=${unitQuote(`${k}=${v}`)}`),
    "Restart=on-failure",
    "RestartSec=3",
  ];
  if (spec.memoryHigh) lines.push(`MemoryHigh=${checkMemoryValue("memory_high", spec.memoryHigh)}`);
  if (spec.memoryMax) lines.push(`MemoryMax=${checkMemoryValue("memory_max", spec.memoryMax)}`);
  lines.push("", "[Install]", "WantedBy=default.target", "");
  return lines.join("\n");
}

function xml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const str = (v: string) => `<string>${xml(v)}</string>`;

export function launchdPlist(spec: ServiceSpec): string {
  const env = Object.entries(spec.env)
    .map(([k, v]) => `\t\t<key>${xml(k)}</key>\n\t\t${str(v)}`)
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<!-- ${xml(spec.origin ?? DAEMON_ORIGIN)} -->
<plist version="1.0">
<dict>
\t<key>Label</key>
\t${str(spec.label)}
\t<key>ProgramArguments</key>
\t<array>
${spec.argv.map((a) => `\t\t${str(a)}`).join("\n")}
\t</array>
\t<key>WorkingDirectory</key>
\t${str(spec.workingDirectory)}
\t<key>EnvironmentVariables</key>
\t<dict>
${env}
\t</dict>
\t<key>RunAtLoad</key>
\t<true/>
\t<key>KeepAlive</key>
\t<dict>
\t\t<key>SuccessfulExit</key>
\t\t<false/>
\t</dict>
\t<key>ThrottleInterval</key>
\t<integer>3</integer>
\t<key>StandardOutPath</key>
\t${str(spec.logFile)}
\t<key>StandardErrorPath</key>
\t${str(spec.logFile)}
</dict>
</plist>
`;
}

/** A Windows command line word: quoted when it has spaces, `"` doubled. */
function winQuote(value: string): string {
  return /[\s"]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * `schtasks /Create` arguments for a task that runs at logon. A task has no
 * environment of its own, so variables are set by `cmd /c` before the program.
 */
export function schtasksCreateArgs(spec: ServiceSpec, taskName: string): string[] {
  const program = spec.argv.map(winQuote).join(" ");
  const sets = Object.entries(spec.env)
    .filter(([k]) => k !== "PATH")
    .map(([k, v]) => `set "${k}=${v}" && `)
    .join("");
  const run = sets ? `cmd /c ${sets}${program}` : program;
  return ["/Create", "/F", "/TN", taskName, "/SC", "ONLOGON", "/RL", "LIMITED", "/TR", run];
}

/** The program a definition starts, read back from it (for `doctor` and `status`). */
export function definedProgram(kind: "systemd" | "launchd", text: string): string | undefined {
  if (kind === "systemd") {
    const exec = /^ExecStart=(.*)$/m.exec(text)?.[1];
    const first = exec ? /^"((?:[^"\\]|\\.)*)"|^(\S+)/.exec(exec) : null;
    const raw = first?.[1] ?? first?.[2];
    return raw?.replace(/\$\$/g, "$").replace(/%%/g, "%").replace(/\\(.)/g, "$1");
  }
  const args = /<key>ProgramArguments<\/key>\s*<array>\s*<string>([^<]*)<\/string>/.exec(text)?.[1];
  return args
    ?.replace(/&quot;/g, '"')
    .replace(/&gt;/g, ">")
    .replace(/&lt;/g, "<")
    .replace(/&amp;/g, "&");
}
