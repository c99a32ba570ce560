// The `mcp` tool (docs/tools.md#mcp, docs/agents.md#scope item 3): calls a tool of a connected
// MCP server by exact name, or lists the tools whose name or description
// contains the query. A non-empty MCP scope limits both to its servers. The
// servers an editor attached to the run's sender come on top, outside the
// scope; a configured server keeps a tool name they share
// (docs/mcp.md#servers-from-an-editor).
import { z } from "zod";
import type { ToolOutcome } from "../../agent/events.ts";
import type { Tool } from "../tools.ts";
import { McpToolUnavailableError, type McpPool, type McpToolInfo } from "./types.ts";
import type { SenderPools } from "./sender-pools.ts";
import { redactOutput } from "../redact-output.ts";

const input = z.object({
  name: z.string().describe('MCP tool to call; a name with no exact match lists matching tools; "" lists all'),
  args: z.string().nullable().optional().describe("the tool's arguments as a JSON-encoded object"),
});

export type McpToolInput = z.output<typeof input>;

const fail = (output: string): ToolOutcome => ({ output, isError: true });

export function mcpTool(pool: McpPool, senders?: SenderPools): Tool<McpToolInput> {
  return {
    name: "mcp",
    description:
      "Call a tool of a connected MCP server by its exact name, with `args` as a JSON-encoded object. " +
      'With a name that is not an exact tool name, lists matching tools as "<tool>: <description>"; "" lists all.',
    input,
    async handler({ name, args }, ctx) {
      const scope = ctx.agentDef.mcps;
      const attached = senders?.forSender(ctx.sender);
      const configured = pool.tools([]);
      const own: McpToolInfo[] = attached ? attached.pool.tools([]).filter((t) => !configured.some((c) => c.name === t.name)) : [];
      const allowed = [...pool.tools(scope), ...own];
      const exact = allowed.find((t) => t.name === name);
      if (name !== "" && !exact) {
        // Scoped: anything outside the allowed tools is refused. Unscoped: a
        // name some server provides can only be missing here if it is not
        // callable; any other name is a query.
        if (scope.length > 0 || configured.some((t) => t.name === name)) return fail(`tool not available: ${name}`);
      }
      if (exact && attached && own.includes(exact)) {
        const outcome = await callTool(attached.pool, name, args, ctx.signal);
        // The editor's env and header values are secrets the configuration does not know.
        return typeof outcome === "string" ? redactOutput(outcome, attached.secrets) : { ...outcome, output: redactOutput(outcome.output, attached.secrets) };
      }
      if (exact) return callTool(pool, name, args, ctx.signal);
      const query = name.toLowerCase();
      const lines = allowed
        .filter((t) => t.name.toLowerCase().includes(query) || t.description.toLowerCase().includes(query))
        .map((t) => `${t.name}: ${t.description}`);
      return lines.length > 0 ? lines.join("\n") : "no tools found";
    },
  };
}

function parseArgs(args: string | null | undefined): Record<string, unknown> | undefined | Error {
  if (args == null || args.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(args);
  } catch (err) {
    return err as Error;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return new Error("expected a JSON object");
  return value as Record<string, unknown>;
}

async function callTool(pool: McpPool, name: string, rawArgs: string | null | undefined, signal: AbortSignal): Promise<ToolOutcome | string> {
  const args = parseArgs(rawArgs);
  if (args instanceof Error) return fail(`invalid tool arguments: ${args.message}`);
  try {
    const result = await pool.call(name, args, signal);
    return result.isError ? fail(`mcp tool error: ${result.text}`) : result.text;
  } catch (err) {
    if (err instanceof McpToolUnavailableError) return fail(err.message);
    return fail(`mcp call failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
