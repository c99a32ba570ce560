// completions: shell completion scripts generated from the command tree, so
// they never fall behind the commands.
import type { Command } from "commander";
import { action } from "./run.ts";

interface Node {
  name: string;
  description: string;
  options: string[];
  children: Node[];
}

function describeTree(cmd: Command): Node {
  return {
    name: cmd.name(),
    description: cmd.description().split("\n")[0] ?? "",
    options: cmd.options.flatMap((o) => [o.short, o.long].filter((f): f is string => Boolean(f))).concat("--help"),
    children: cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden).map(describeTree),
  };
}

const words = (list: string[]) => list.join(" ");
const singleQuoted = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function bash(root: Node): string {
  const cases = root.children
    .map((c) => {
      const subs = c.children.map((s) => s.name);
      const nested = c.children.map((s) => `        ${s.name}) opts=${singleQuoted(words(s.options))} ;;`).join("\n");
      const inner = nested ? `\n      case "\${COMP_WORDS[2]}" in\n${nested}\n      esac` : "";
      return `    ${c.name})\n      opts=${singleQuoted(words([...subs, ...c.options]))}${inner ? `\n      if [ "$COMP_CWORD" -gt 2 ]; then${inner}\n      fi` : ""}\n      ;;`;
    })
    .join("\n");
  return `# bash completion for crabtalk: eval "$(crabtalk completions bash)" in ~/.bashrc
_crabtalk() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" opts
  if [ "$COMP_CWORD" -eq 1 ]; then
    opts=${singleQuoted(words([...root.children.map((c) => c.name), ...root.options]))}
  else
    case "\${COMP_WORDS[1]}" in
${cases}
      *) opts="" ;;
    esac
  fi
  COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
}
complete -o default -F _crabtalk crabtalk
`;
}

const zshDescribe = (nodes: Node[]) => nodes.map((c) => singleQuoted(`${c.name}:${c.description.replace(/:/g, "\\:")}`)).join(" ");

function zsh(root: Node): string {
  const cases = root.children
    .map((c) => {
      const subs = c.children.length ? `      local -a subs; subs=(${zshDescribe(c.children)})\n      (( CURRENT == 3 )) && _describe 'subcommand' subs\n` : "";
      return `    ${c.name})\n${subs}      compadd -- ${c.options.join(" ")}\n      ;;`;
    })
    .join("\n");
  return `#compdef crabtalk
# zsh completion for crabtalk: eval "$(crabtalk completions zsh)" in ~/.zshrc (after compinit)
_crabtalk() {
  local -a cmds
  cmds=(${zshDescribe(root.children)})
  if (( CURRENT == 2 )); then
    _describe 'command' cmds
    compadd -- ${root.options.join(" ")}
    return
  fi
  case "\${words[2]}" in
${cases}
  esac
}
compdef _crabtalk crabtalk
`;
}

function fish(root: Node): string {
  const lines = ["# fish completion for crabtalk: crabtalk completions fish > ~/.config/fish/completions/crabtalk.fish", "complete -c crabtalk -f"];
  const flag = (f: string) => (f.startsWith("--") ? `-l ${f.slice(2)}` : `-s ${f.slice(1)}`);
  for (const o of root.options) lines.push(`complete -c crabtalk -n __fish_use_subcommand ${flag(o)}`);
  for (const c of root.children) {
    lines.push(`complete -c crabtalk -n __fish_use_subcommand -a ${c.name} -d ${singleQuoted(c.description)}`);
    const seen = `'__fish_seen_subcommand_from ${c.name}'`;
    for (const s of c.children) lines.push(`complete -c crabtalk -n ${seen} -a ${s.name} -d ${singleQuoted(s.description)}`);
    for (const o of c.options) lines.push(`complete -c crabtalk -n ${seen} ${flag(o)}`);
  }
  return lines.join("\n") + "\n";
}

const SHELLS = { bash, zsh, fish } as const;

export function registerCompletionsCommand(program: Command): void {
  program
    .command("completions")
    .description("print a shell completion script (bash, zsh or fish)")
    .argument("<shell>", "bash, zsh or fish")
    .addHelpText(
      "after",
      `
Install:
  bash  echo 'eval "$(crabtalk completions bash)"' >> ~/.bashrc
  zsh   echo 'eval "$(crabtalk completions zsh)"' >> ~/.zshrc      (after compinit)
  fish  crabtalk completions fish > ~/.config/fish/completions/crabtalk.fish`,
    )
    .action(
      action(async (shell: string) => {
        const render = SHELLS[shell as keyof typeof SHELLS];
        if (!render) throw new Error(`no completions for '${shell}': use bash, zsh or fish`);
        await Bun.write(Bun.stdout, render(describeTree(program)));
      }),
    );
}
