// What the daemon decides for the tools of a runtime (docs/security.md): the
// environment they get, the secret values that never leave a tool's output,
// and, per agent, whether and how their processes are sandboxed.

/** What a sandboxed process may see and do. */
export interface SandboxSpec {
  /** Writable besides the working directory and a private /tmp. */
  writable: string[];
  /** Made invisible: the crabtalk home, credential stores. */
  hidden: string[];
  network: boolean;
}

export type SandboxDecision =
  | { kind: "none" }
  | { kind: "bwrap"; command: string; spec: SandboxSpec }
  | { kind: "sandbox-exec"; command: string; spec: SandboxSpec }
  /** `sandbox = "required"` and no working sandbox: the tool must not run. */
  | { kind: "refuse"; message: string };

export interface ToolPolicy {
  /** The tools' environment: the daemon's minus secrets. */
  readonly env: Readonly<Record<string, string>>;
  /** Values replaced by `<redacted>` in every tool output. */
  readonly secrets: readonly string[];
  /** The umask tool processes start with (the user's, not the daemon's 077); undefined = inherited. */
  readonly umask?: number;
  sandboxFor(agent: string): SandboxDecision;
}
