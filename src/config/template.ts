/**
 * The `config.toml` written on first start (docs/config.md#configuration). Mostly comments:
 * it must parse as a valid config, so only the three `[system.*]` tables are
 * live and `model` is left for the user to set. The kinds it names come from
 * src/base/provider-kinds.ts.
 */
import { PROVIDER_KINDS } from "../base/provider-kinds.ts";

/** `text` as `# ` comment lines of at most 76 characters. */
function commentWrapped(text: string): string {
  const lines: string[] = [];
  for (const word of text.split(" ")) {
    const last = lines.length - 1;
    if (last >= 0 && `${lines[last]} ${word}`.length <= 76) lines[last] = `${lines[last]} ${word}`;
    else lines.push(`# ${word}`);
  }
  return lines.join("\n");
}

export const CONFIG_TEMPLATE = `# crabtalk daemon configuration.
#
# Values may reference environment variables as \${NAME}; they are expanded
# when the daemon starts or reloads (an unset variable becomes "").
# Apply edits with \`crabtalk reload\` or by restarting the daemon.

# ---------------------------------------------------------------------------
# Providers: one [provider.<name>] table each. \`models\` is required and a
# model name may be listed by one provider only. \`kind\` defaults to "openai"
${commentWrapped(`(any OpenAI-compatible API); others: ${PROVIDER_KINDS.filter((k) => k !== "openai").join(", ")}.`)}
# ---------------------------------------------------------------------------

# [provider.openai]
# api_key = "\${OPENAI_API_KEY}"
# models = ["gpt-4o", "gpt-4o-mini"]
# max_retries = 2               # retries of transient failures
# timeout = 30                  # seconds per attempt (for a stream: to its first chunk)
# stream_idle_timeout = 120     # seconds a stream may stay silent between chunks; 0 = no limit
# max_answer_bytes = 4194304    # bytes of one answer, at most 12582912 (12 MiB)
# prices = { "gpt-4o" = { input = 2.5, output = 10, cache_read = 1.25 } }   # USD per million tokens; overrides the built-in table

# [provider.anthropic]
# kind = "anthropic"
# api_key = "\${ANTHROPIC_API_KEY}"
# models = ["claude-sonnet-4-5-20250514"]

# [provider.gemini]
# kind = "google"
# api_key = "\${GEMINI_API_KEY}"
# models = ["gemini-2.5-pro"]

# [provider.aws]
# kind = "bedrock"
# region = "us-east-1"            # access_key/secret_key, or the AWS credential chain
# models = ["us.anthropic.claude-sonnet-4-5-20250929-v1:0"]

# [provider.ollama]
# kind = "ollama"
# base_url = "http://localhost:11434/v1"
# models = ["llama3"]
# context_limits = { "llama3" = 8192 }   # context windows, over the family defaults

# ---------------------------------------------------------------------------
# The default agent, "crab". \`model\` must be set (to a model listed by a
# provider above) before the daemon can answer: \`crabtalk setup\` does it.
# ---------------------------------------------------------------------------
[system.crab]
# model = "gpt-4o"
# description = ""
# max_iterations = 16
# thinking = false
# members = []                  # agents crab may delegate to
# skills = []                   # skill scope (empty = all skills)
# mcps = []                     # MCP server scope (empty = all servers)
# fallback = []                # models tried in order when model fails (429, 5xx, overloaded)
# compact_threshold = 100000    # estimated tokens before auto-compaction; 0 disables;
#                               # unset: 80 % of the model's context window
# compact_tool_max_len = 1024   # bytes kept of each tool result when compacting
# run_timeout = 1800            # wall-clock seconds one run may take; 0 = no limit
# approve = ["bash"]            # tool calls that wait for your yes (e.g. "bash:rm *"); docs/approvals.md
# max_usd_per_run = 0.5         # a request goes only if its worst case fits (its delegated tasks count too)
# max_tokens_per_run = 200000

# Delegated tasks.
[system.tasks]
max_concurrent = 4
viewable_window = 16
task_timeout = 300   # seconds

[system.memory]
recall_limit = 5     # memory entries injected by auto-recall

# An idle conversation's history leaves memory after this many seconds and is
# read back from its file on the next message (0 keeps every one in memory).
# [system.sessions]
# unload_after = 600
# Spending across all runs of all agents (docs/usage.md): each request reserves its
# worst case before it is sent, so runs at once cannot pass it; a warning event at 80 %.
# [system.budget]
# daily_usd = 5

# How \`crabtalk start\` runs the daemon as a systemd user service (Linux).
# [system.service]
# memory_high = "512M"   # systemd slows the daemon down above this
# memory_max = "1G"      # and stops it above this (it restarts after 3 s)

# Environment passed to every stdio MCP server (a server's own env wins).
# [env]
# GITHUB_TOKEN = "\${GITHUB_TOKEN}"

# Where crabtalk search / pull find packages (CRABTALK_HUB_URL overrides it).
# [hub]
# url = "https://github.com/crabtalk/hub"

# Names left out: providers, MCP servers, skills.
# [disabled]
# providers = []
# mcps = []
# skills = []

# ---------------------------------------------------------------------------
# MCP servers and more agents belong in local/CrabTalk.toml, for example:
#
# [mcps.filesystem]                  # stdio
# command = "npx"
# args = ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]
# env = { LOG_LEVEL = "info" }
#
# [mcps.remote]                      # streamable HTTP
# url = "http://localhost:8080/mcp"
#
# [agents.researcher]                # prompt: local/agents/researcher.md
# description = "Finds and summarises sources"
# model = "gpt-4o"
# skills = []
# ---------------------------------------------------------------------------
`;
