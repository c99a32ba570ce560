// `crabtalk chat`: an interactive conversation with an agent.
import type { Command } from "commander";
import { parseDirectory, parseSessionId } from "../args.ts";
import { CHAT_HELP } from "../chat/slash-commands.ts";
import { runChat } from "../chat/chat-loop.ts";
import type { ConnectOptions } from "../connect.ts";
import { resolveConversationFile } from "../conversation-file.ts";
import { action } from "./run.ts";

interface ChatOptions {
  agent: string;
  session?: bigint;
  sender?: string;
  new?: boolean;
  resume?: string;
  cwd?: string;
  usage: boolean;
}

export function registerChatCommand(program: Command, conn: () => ConnectOptions): void {
  program
    .command("chat")
    .description("talk with an agent interactively (also reads one message per line from a pipe)")
    .option("-a, --agent <name>", "agent to talk to", "crab")
    .option("-s, --session <id>", "continue this open session (ids from crabtalk sessions)", parseSessionId)
    .option("--sender <name>", "who is talking (e.g. alice); default: you, the local owner")
    .option("-n, --new", "start a new conversation instead of resuming the latest one")
    .option("--resume <file>", "continue a conversation file (names from crabtalk conversations)")
    .option("--cwd <dir>", "working directory for the agent's tools (default: the current directory)", parseDirectory)
    .option("--no-usage", "do not print tokens and cost after each answer")
    .addHelpText(
      "after",
      `
${CHAT_HELP}

When the agent asks a question, pick options by number or type an answer.
In a pipe (no terminal) there are no prompts or colours: each input line is a
message, answers go to stdout, thinking and tool calls to stderr, and chat
exits after answering the last line (status 1 if any message failed).
NO_COLOR turns colours off on a terminal too.

Examples:
  crabtalk chat
  crabtalk chat --agent reviewer --new
  printf 'hello\\nand again\\n' | crabtalk chat`,
    )
    .action(
      action((opts: ChatOptions) =>
        runChat(
          {
            agent: opts.agent,
            session: opts.session,
            sender: opts.sender,
            newChat: Boolean(opts.new),
            resumeFile: opts.resume ? resolveConversationFile(opts.resume) : undefined,
            cwd: opts.cwd ?? process.cwd(),
            showUsage: opts.usage,
            picks: [],
          },
          conn(),
        ),
      ),
    );
}
