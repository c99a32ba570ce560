// `crabtalk conversations` and `crabtalk history`: conversation files on disk.
import type { Command } from "commander";
import { withClient, type ConnectOptions } from "../connect.ts";
import { resolveConversationFile } from "../conversation-file.ts";
import { conversationsTable } from "../listings.ts";
import { toPlain } from "../plain-json.ts";
import { action } from "./run.ts";

export function registerConversationCommands(program: Command, conn: () => ConnectOptions): void {
  program
    .command("conversations")
    .description("list conversation files in <home>/sessions, newest first")
    .option("-a, --agent <name>", "only this agent's conversations")
    .option("--sender <name>", "only this sender's (needs --agent)")
    .option("--json", "print a JSON array with full file paths")
    .addHelpText(
      "after",
      `
FILE is the name to give to crabtalk history or send --resume.`,
    )
    .action(
      action(async (opts: { agent?: string; sender?: string; json?: boolean }) => {
        if (opts.sender && !opts.agent) throw new Error("--sender filters only together with --agent");
        const list = await withClient(conn(), (client) => client.listConversations(opts.agent ?? "", opts.sender ?? ""));
        console.log(opts.json ? JSON.stringify(toPlain(list)) : conversationsTable(list));
      }),
    );

  program
    .command("history")
    .description("print a conversation's messages as 'role: content' lines")
    .argument("<file>", "conversation file: a name from crabtalk conversations, or a path in <home>/sessions")
    .option("--json", "print {title, agent, messages: [{role, content}]}")
    .addHelpText(
      "after",
      `
Shows the working context: after a compaction, the summary (as a user
message) and what followed it. Assistant turns that only called tools have
empty content.`,
    )
    .action(
      action(async (file: string, opts: { json?: boolean }) => {
        const history = await withClient(conn(), (client) =>
          client.getConversationHistory(resolveConversationFile(file)),
        );
        if (opts.json) {
          console.log(JSON.stringify(toPlain(history)));
          return;
        }
        for (const m of history.messages) console.log(`${m.role}: ${m.content}`);
      }),
    );
}
