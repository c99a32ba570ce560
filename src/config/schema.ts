/**
 * Schemas and types of `config.toml` (docs/config.md). zod objects strip keys
 * they do not know, which is exactly "unknown keys are ignored" (docs/config.md).
 * Messages are phrased to follow a `path: ` prefix (see load.ts).
 */
import { z } from "zod";
import { PROVIDER_KINDS, PROVIDER_KIND_TABLE, type ProviderKind } from "../base/provider-kinds.ts";
import { parseRule } from "../base/approval-rules.ts";
import { MEMORY_VALUE } from "../base/memory-value.ts";
import { isLoopbackHost, parseListenAddress } from "../base/listen-address.ts";

const text = z.string({ error: "must be a string" });
const flag = z.boolean({ error: "must be true or false" });
const integer = z.number({ error: "must be an integer" }).int("must be an integer");
const count = integer.min(0, "must not be negative");
const positive = integer.min(1, "must be at least 1");
const usd = z.number({ error: "must be a number of US dollars" }).min(0, "must not be negative");
const names = z.array(text, { error: "must be an array of strings" });
const stringTable = z.record(z.string(), text, { error: "must be a table of strings" });
/** Approve rules (docs/approvals.md): `tool` or `tool:pattern`. */
const approveRules = z.array(
  text.superRefine((rule, ctx) => {
    const parsed = parseRule(rule);
    if (typeof parsed === "string") ctx.addIssue({ code: "custom", message: parsed });
  }),
  { error: "must be an array of strings" },
);
const kind = z.enum(PROVIDER_KINDS, {
  error: `must be one of ${PROVIDER_KINDS.join(", ")}`,
});

/** The largest `max_answer_bytes`: a Send reply with such an answer still fits a 16 MiB frame. */
const MAX_ANSWER_BYTES_LIMIT = 12 * 1024 * 1024;

/** Requirements of one provider table that depend on its kind (docs/config.md#providername), from its entry in src/base/provider-kinds.ts. */
function checkProviderKind(p: ProviderConfig, ctx: z.RefinementCtx): void {
  const missing = (key: keyof ProviderConfig): void => {
    if (p[key] === undefined || p[key] === "") {
      ctx.addIssue({ code: "custom", path: [key], message: `required for kind '${p.kind}'` });
    }
  };
  const { required = [], pair, keyOrBaseUrl } = PROVIDER_KIND_TABLE[p.kind].config;
  for (const key of required) missing(key);
  // Static keys come as a pair (Bedrock's; without them the AWS default credential chain applies, docs/providers.md#bedrock--aws-bedrock).
  if (pair && Boolean(p[pair[0]]) !== Boolean(p[pair[1]])) missing(p[pair[0]] ? pair[1] : pair[0]);
  // Whether a `model_path` file exists is checked in load.ts: parsing stays pure.
  if (keyOrBaseUrl && !p.api_key && !p.base_url) {
    ctx.addIssue({ code: "custom", path: [], message: `kind '${p.kind}' needs api_key or base_url` });
  }
}

const providerFields = z.object(
  {
    kind: kind.optional(),
    // Upstream's older name for `kind`; `kind` wins when both are present.
    standard: kind.optional(),
    api_key: text.optional(),
    base_url: text.optional(),
    models: z
      .array(text, {
        error: (issue) => (issue.input === undefined ? "must list at least one model" : "must be an array of strings"),
      })
      .min(1, "must list at least one model"),
    max_retries: count.default(2),
    timeout: count.default(30),
    // Seconds a stream may stay silent between chunks; 0 = no limit.
    stream_idle_timeout: count.default(120),
    // Bytes of one answer (text, reasoning, tool arguments). At most 12 MiB, so
    // that a Send reply carrying it always fits a 16 MiB frame.
    max_answer_bytes: positive.max(MAX_ANSWER_BYTES_LIMIT, `must be at most ${MAX_ANSWER_BYTES_LIMIT} (12 MiB)`).default(4 * 1024 * 1024),
    api_version: text.optional(),
    region: text.optional(),
    access_key: text.optional(),
    secret_key: text.optional(),
    weight: integer.optional(),
    model_path: text.optional(),
    n_gpu_layers: integer.optional(),
    n_ctx: integer.optional(),
    n_threads: integer.optional(),
    // Context windows in tokens by model name, over the family defaults.
    context_limits: z.record(z.string(), positive, { error: "must be a table of model names to token counts" }).optional(),
    // USD per million tokens by model name (docs/usage.md); overrides the built-in table.
    prices: z
      .record(z.string(), z.object({ input: usd, output: usd, cache_read: usd.optional(), cache_write: usd.optional() }, { error: "must be a table" }), {
        error: "must be a table of model prices",
      })
      .optional(),
  },
  { error: "must be a table" },
);

/** `[provider.<name>]` (docs/config.md#providername), with `standard` folded into `kind`. */
const providerSchema = providerFields
  .transform(({ kind: k, standard, ...rest }): ProviderConfig => ({ kind: k ?? standard ?? "openai", ...rest }))
  .superRefine((p, ctx) => checkProviderKind(p, ctx));
export type ProviderConfig = Omit<z.output<typeof providerFields>, "kind" | "standard"> & { kind: ProviderKind };

/** How tools are sandboxed (`[system.tools] sandbox`, ours; docs/security.md). */
const SANDBOX_MODES = ["auto", "required", "off"] as const;
const sandboxMode = z.enum(SANDBOX_MODES, { error: `must be one of ${SANDBOX_MODES.join(", ")}` });

/** An agent config (docs/config.md#systemcrab; `[agents.<name>]` of docs/packages.md#manifests has the same keys). */
export const agentConfigSchema = z.object(
  {
    // Optional even for `[system.crab]`: the daemon starts from the template,
    // which names no model; runs then fail with a clear error.
    model: text.optional(),
    description: text.default(""),
    max_iterations: positive.default(16),
    thinking: flag.default(false),
    members: names.default([]),
    skills: names.default([]),
    mcps: names.default([]),
    // Absent: 80 % of the model's context window. 0 disables auto-compaction
    // (TOML has no null); JSON `null` (docs/agents.md#agent-config-json) means the same.
    compact_threshold: count
      .nullable()
      .optional()
      .transform((v) => (v === null ? 0 : v)),
    // Models tried in order when `model` fails transiently before answering.
    fallback: names.default([]),
    compact_tool_max_len: count.default(1024),
    // Budgets of one run (docs/usage.md): the run stops before a request that would pass one.
    max_usd_per_run: usd.optional(),
    max_tokens_per_run: positive.optional(),
    // Ours (docs/security.md): overrides of `[system.tools]` for this agent's tools.
    sandbox: sandboxMode.optional(),
    writable: names.optional(),
    network: flag.optional(),
    // Ours (docs/config.md): where runs work when the client names no directory; `~` = the user's home.
    cwd: text.optional(),
    // Wall-clock seconds one run may take; 0 = no limit.
    run_timeout: count.default(1800),
    approve: approveRules.default([]),
  },
  { error: "must be a table" },
);
export type AgentConfig = z.output<typeof agentConfigSchema>;

/** `[system.tasks]` (docs/config.md#systemtasks). */
export const tasksSchema = z.object(
  {
    max_concurrent: positive.default(4),
    viewable_window: count.default(16),
    task_timeout: count.default(300),
  },
  { error: "must be a table" },
);

/** `[system.memory]` (docs/config.md#systemmemory). `soul_editable` is accepted and has no effect. */
export const memorySchema = z.object(
  {
    recall_limit: count.default(5),
    soul_editable: flag.optional(),
  },
  { error: "must be a table" },
);

const mcpServerFields = z.object(
  {
    name: text.optional(),
    command: text.default(""),
    args: names.default([]),
    env: stringTable.default({}),
    url: text.optional(),
    auto_restart: flag.default(true),
    auth: flag.default(false),
    // Ours (docs/security.md): run this stdio server inside the tool sandbox.
    sandbox: flag.optional(),
  },
  { error: "must be a table" },
);
export type McpServerConfig = Omit<z.output<typeof mcpServerFields>, "name"> & { name: string };

/** A `[mcps]` table (docs/packages.md#manifests): each server's `name` defaults to its table key. */
export const mcpTableSchema = z
  .record(z.string(), mcpServerFields, { error: "must be a table" })
  .transform((servers): Record<string, McpServerConfig> => Object.fromEntries(Object.entries(servers).map(([key, s]) => [key, { ...s, name: s.name ?? key }])));

/** A `[agents]` table (docs/packages.md#manifests). */
export const agentTableSchema = z.record(z.string(), agentConfigSchema, { error: "must be a table" });

/** `[disabled]` (docs/config.md#disabled). */
const disabledSchema = z.object(
  {
    providers: names.default([]),
    mcps: names.default([]),
    skills: names.default([]),
  },
  { error: "must be a table" },
);

/** `[system.tools]` (ours, docs/security.md): the tool sandbox and the tools' environment. */
const toolsSchema = z.object(
  {
    sandbox: sandboxMode.default("auto"),
    /** Paths tools may write besides the run's working directory and a private /tmp. */
    writable: names.default([]),
    network: flag.default(true),
    /** Variables kept in the tools' environment although they look like credentials. */
    env_passthrough: names.default([]),
  },
  { error: "must be a table" },
);
export type ToolsConfig = z.output<typeof toolsSchema>;

const memoryLimit = text.regex(MEMORY_VALUE, 'must be bytes with K/M/G/T ("512M"), a percentage ("50%") or "infinity"');

/** `[system.service]` (ours): limits rendered into the systemd unit by `crabtalk start`. */
const serviceSchema = z.object(
  {
    memory_max: memoryLimit.optional(),
    memory_high: memoryLimit.optional(),
  },
  { error: "must be a table" },
);

/** `[system.sessions]` (ours): how long an idle session's history stays in memory. */
const sessionsSchema = z.object(
  {
    unload_after: count.default(600),
  },
  { error: "must be a table" },
);
/** `[system.budget]` (ours, docs/usage.md): spending limits across every run. */
const budgetSchema = z.object(
  {
    daily_usd: usd.optional(),
  },
  { error: "must be a table" },
);
/**
 * `[system.tcp]` (ours): loopback TCP. Unset, it is on where the peer's OS
 * user can be checked (Linux) and off elsewhere; `true` elsewhere accepts any
 * local user (docs/security.md "Who can connect").
 */
const tcpSchema = z.object({ enabled: flag.optional() }, { error: "must be a table" });
export type TcpConfig = z.output<typeof tcpSchema>;

/** Refusals that depend on more than one key of `[system.remote]` (docs/remote.md). */
function checkRemote(r: RemoteConfig, ctx: z.RefinementCtx): void {
  if ((r.tls_cert === undefined) !== (r.tls_key === undefined)) {
    ctx.addIssue({ code: "custom", path: [r.tls_cert === undefined ? "tls_cert" : "tls_key"], message: "tls_cert and tls_key go together" });
  }
  if (r.tls !== undefined && r.tls_cert !== undefined) {
    ctx.addIssue({ code: "custom", path: ["tls"], message: 'set tls = "self-signed" or tls_cert/tls_key, not both' });
  }
  const address = parseListenAddress(r.listen);
  if (r.enabled && typeof address !== "string" && !isLoopbackHost(address.host) && r.tls === undefined && r.tls_cert === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["listen"],
      message: `'${r.listen}' is reachable from other machines, and without TLS tokens and cookies would cross the network in clear: set tls = "self-signed" or tls_cert/tls_key, or listen on 127.0.0.1`,
    });
  }
}

/** `[system.remote]` (ours, docs/remote.md): the listener for browsers and remote clients, off by default. */
export const remoteSchema = z
  .object(
    {
      enabled: flag.default(false),
      listen: text
        .superRefine((v, ctx) => {
          const parsed = parseListenAddress(v);
          if (typeof parsed === "string") ctx.addIssue({ code: "custom", message: parsed });
        })
        .default("127.0.0.1:6690"),
      tls: z.literal("self-signed", { error: 'must be "self-signed" (or leave it out and set tls_cert/tls_key)' }).optional(),
      tls_cert: text.optional(),
      tls_key: text.optional(),
      /** DNS names a request's Host may carry besides localhost and IP literals (DNS rebinding). */
      allowed_hosts: names.default([]),
    },
    { error: "must be a table" },
  )
  .superRefine((r, ctx) => checkRemote(r, ctx));
export type RemoteConfig = z.output<typeof remoteSchema>;

/** `[system.limits]` (ours): what one client, or many, may hold of the daemon. */
const limitsSchema = z.object(
  {
    /** Seconds a frame may take to arrive once its first byte has. */
    frame_timeout: positive.default(30),
    /** Bytes of partly received frames buffered across all connections (one maximum-size frame and room for others). */
    frame_buffer_bytes: positive.default(24 * 1024 * 1024),
    /** Seconds a connection with nothing in flight (no request, no subscription) stays open. */
    idle_timeout: positive.default(600),
    /** Open connections (Unix socket and TCP together). */
    max_connections: positive.default(1024),
  },
  { error: "must be a table" },
);
export type LimitsConfig = z.output<typeof limitsSchema>;

const systemSchema = z.object(
  {
    budget: budgetSchema.prefault({}),
    service: serviceSchema.prefault({}),
    sessions: sessionsSchema.prefault({}),
    tcp: tcpSchema.prefault({}),
    limits: limitsSchema.prefault({}),
    remote: remoteSchema.prefault({}),
    crab: agentConfigSchema.prefault({}),
    tasks: tasksSchema.prefault({}),
    memory: memorySchema.prefault({}),
    tools: toolsSchema.prefault({}),
  },
  { error: "must be a table" },
);

/** A model name may be served by one provider only (docs/config.md#providername). */
function checkDuplicateModels(providers: Record<string, ProviderConfig>, ctx: z.RefinementCtx): void {
  const owner = new Map<string, string>();
  for (const [name, p] of Object.entries(providers)) {
    for (const model of p.models) {
      if (owner.has(model) && owner.get(model) !== name) {
        ctx.addIssue({
          code: "custom",
          path: ["provider", name, "models"],
          message: `duplicate model name '${model}' across providers`,
        });
      } else {
        owner.set(model, name);
      }
    }
  }
}

/** `[hub]` (ours): where the package index is cloned from. */
const hubSchema = z.object({ url: text.optional() }, { error: "must be a table" });

/** The whole `config.toml` (docs/config.md), every section optional. */
export const configSchema = z
  .object(
    {
      provider: z.record(z.string(), providerSchema, { error: "must be a table" }).default({}),
      system: systemSchema.prefault({}),
      env: stringTable.default({}),
      disabled: disabledSchema.prefault({}),
      hub: hubSchema.prefault({}),
      // Deprecated location (docs/packages.md#manifests): read, and migrated to the local manifest at start.
      mcps: mcpTableSchema.prefault({}),
      agents: agentTableSchema.default({}),
    },
    { error: "config must be a table" },
  )
  .superRefine((c, ctx) => checkDuplicateModels(c.provider, ctx));

/** The parsed config with every default applied (references not expanded). */
export type DaemonConfig = z.output<typeof configSchema>;
