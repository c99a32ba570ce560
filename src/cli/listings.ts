// Tables for the list commands (sessions, conversations, agents).
import type * as NodePath from "node:path";
import type { AgentInfo, ConversationInfo, ConversationMessage, SessionInfo, SessionSearchHit } from "../protocol/gen/crabtalk_pb.ts";
import { formatDuration } from "./stats-view.ts";
import { formatTable, oneLine } from "./table.ts";

/** Required when a listing needs it: the fast `sessions` command never does, and loading it costs a short command (issue 11). */
const nodePath = (): typeof NodePath => require("node:path");

const TITLE_MAX = 50;

export function sessionsTable(sessions: SessionInfo[]): string {
  if (sessions.length === 0) return "no open sessions";
  return formatTable(
    ["ID", "AGENT", "CREATED_BY", "MESSAGES", "ALIVE", "ACTIVE", "TITLE"],
    sessions.map((s) => [
      String(s.id),
      s.agent,
      s.createdBy,
      String(s.messageCount),
      formatDuration(Number(s.aliveSecs)),
      s.active ? "yes" : "no",
      oneLine(s.title, TITLE_MAX),
    ]),
  );
}

export function conversationsTable(conversations: ConversationInfo[]): string {
  if (conversations.length === 0) return "no conversations";
  return formatTable(
    ["DATE", "AGENT", "SENDER", "SEQ", "MESSAGES", "FILE"],
    conversations.map((c) => [c.date, c.agent, c.sender, String(c.seq), String(c.messageCount), nodePath().basename(c.filePath)]),
  );
}

export function agentsTable(agents: AgentInfo[]): string {
  if (agents.length === 0) return "no agents";
  return formatTable(
    ["NAME", "MODEL", "MAX_ITER", "THINKING", "DESCRIPTION"],
    agents.map((a) => [a.name, a.model ?? "(active)", String(a.maxIterations), a.thinking ? "yes" : "no", oneLine(a.description, TITLE_MAX)]),
  );
}

/** Search hits, best first: file, date and title, then the match between its neighbours. */
export function searchHitsText(hits: SessionSearchHit[]): string {
  if (hits.length === 0) return "no matches";
  const line = (mark: string, m: ConversationMessage | undefined) => (m ? [`  ${mark} ${m.role}: ${oneLine(m.content, 100)}`] : []);
  return hits
    .map((h, i) =>
      [
        `${i + 1}. ${nodePath().basename(h.filePath)}  ${h.date}${h.title ? `  ${oneLine(h.title, TITLE_MAX)}` : ""}`,
        ...line(" ", h.before),
        ...line(">", h.match),
        ...line(" ", h.after),
      ].join("\n"),
    )
    .join("\n\n");
}
