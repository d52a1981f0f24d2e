import type { Command } from '../command.ts';
import { UsageError } from '../output.ts';
import type { ClientCommand } from './command.ts';

/**
 * `sheaf completion bash|zsh|fish`: a completion script written from the
 * command table itself (main.ts's COMMANDS: every command's words, options
 * and summary), so it lists exactly the commands and options this sheaf has.
 * Each script finds the command typed so far (the words before the first
 * option) and offers its subcommands, or its options; after an option that
 * takes a file (--out, --receipt) it completes file names.
 */

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

/** Options whose value is a file or directory name. */
const FILE_OPTIONS = ['out', 'receipt'];

interface Node {
  /** The words so far, e.g. "admin key". */
  path: string;
  /** The next words, with a summary each. */
  next: Map<string, string>;
  /** The options when the path is a command: "--name" and whether it takes a value. */
  options: Array<{ flag: string; value: boolean }>;
}

/** Every path of words (the empty one too) with what may follow it. */
export function commandTree(commands: Array<Pick<Command<unknown>, 'name' | 'summary' | 'options'>>): Node[] {
  const nodes = new Map<string, Node>();
  const node = (path: string) => nodes.get(path) ?? nodes.set(path, { path, next: new Map(), options: [] }).get(path)!;
  node('');
  for (const c of [...commands, { name: 'help', summary: "a command's or group's options", options: {} }]) {
    const words = c.name.split(' ');
    words.forEach((w, i) => {
      const parent = node(words.slice(0, i).join(' '));
      if (!parent.next.has(w)) parent.next.set(w, i === words.length - 1 ? c.summary : `the ${words.slice(0, i + 1).join(' ')} commands`);
    });
    node(c.name).options = [
      ...Object.entries(c.options).map(([name, o]) => ({ flag: `--${name}`, value: (o as { type: string }).type === 'string' })),
      { flag: '--json', value: false },
      { flag: '--help', value: false },
    ];
  }
  return [...nodes.values()];
}

const word = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '');
const quoteSingle = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function bash(nodes: Node[]): string {
  const cases = nodes
    .map((n) => `    ${quoteSingle(n.path)}) opts=${quoteSingle([...n.next.keys(), ...n.options.map((o) => o.flag)].join(' '))} ;;`)
    .join('\n');
  return `# bash completion for sheaf (written by "sheaf completion bash"; load it with
#   source <(sheaf completion bash)   or save it in ~/.local/share/bash-completion/completions/sheaf)
_sheaf() {
  local cur prev cmdpath="" opts="" i w
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ $w == -* ]] && break
    cmdpath="\${cmdpath:+$cmdpath }$w"
  done
  case "$prev" in
    ${FILE_OPTIONS.map((o) => `--${o}`).join('|')}) COMPREPLY=($(compgen -f -- "$cur")); return ;;
  esac
  case "$cmdpath" in
${cases}
  esac
  COMPREPLY=($(compgen -W "$opts" -- "$cur"))
}
complete -o default -F _sheaf sheaf
`;
}

function zsh(nodes: Node[]): string {
  const cases = nodes
    .map((n) => {
      const items = [...[...n.next].map(([w, s]) => `${w}:${s}`), ...n.options.map((o) => o.flag)];
      return `    ${quoteSingle(n.path)}) items=(${items.map(quoteSingle).join(' ')}) ;;`;
    })
    .join('\n');
  return `#compdef sheaf
# zsh completion for sheaf (written by "sheaf completion zsh"; load it with
#   source <(sheaf completion zsh)   or save it as _sheaf in a directory of $fpath)
_sheaf() {
  local cmdpath="" i w
  local -a items subcommands flags
  for ((i = 2; i < CURRENT; i++)); do
    w=\${words[i]}
    [[ $w == -* ]] && break
    cmdpath="\${cmdpath:+$cmdpath }$w"
  done
  case \${words[CURRENT-1]} in
    ${FILE_OPTIONS.map((o) => `--${o}`).join('|')}) _files; return ;;
  esac
  case $cmdpath in
${cases}
  esac
  for w in $items; do
    if [[ $w == --* ]]; then flags+=($w); else subcommands+=($w); fi
  done
  (( \${#subcommands} )) && _describe -t commands 'sheaf command' subcommands
  (( \${#flags} )) && compadd -- $flags
  return 0
}
if [[ "\${funcstack[1]}" == _sheaf ]]; then
  _sheaf "$@"
else
  compdef _sheaf sheaf
fi
`;
}

function fish(nodes: Node[]): string {
  const lines = nodes.flatMap((n) => [
    ...[...n.next].map(([w, s]) => `complete -c sheaf -f -n ${quoteSingle(`__sheaf_path "${n.path}"`)} -a ${word(w)} -d ${quoteSingle(s.slice(0, 80))}`),
    ...n.options.map(
      (o) =>
        `complete -c sheaf ${FILE_OPTIONS.includes(o.flag.slice(2)) ? '-F' : '-f'} -n ${quoteSingle(`__sheaf_path "${n.path}"`)} -l ${word(o.flag.slice(2))}${o.value ? ' -r' : ''}`,
    ),
  ]);
  return `# fish completion for sheaf (written by "sheaf completion fish"; load it with
#   sheaf completion fish | source   or save it as ~/.config/fish/completions/sheaf.fish)
function __sheaf_path
    set -l typed (commandline -opc)
    set -e typed[1]
    set -l words
    for w in $typed
        string match -q -- '-*' $w; and break
        set -a words $w
    end
    test "$words" = "$argv[1]"
end
complete -c sheaf -f
${lines.join('\n')}
`;
}

export function completionScript(shell: Shell, commands: Array<Pick<Command<unknown>, 'name' | 'summary' | 'options'>>): string {
  const nodes = commandTree(commands);
  return shell === 'bash' ? bash(nodes) : shell === 'zsh' ? zsh(nodes) : fish(nodes);
}

const completion: ClientCommand<{ shell: Shell }> = {
  name: 'completion',
  usage: 'bash|zsh|fish',
  summary: 'print a shell completion script of every command and option, e.g. source <(sheaf completion bash)',
  options: {},
  positionals: ['shell'],
  parse(v) {
    if (!v.shell || !SHELLS.includes(v.shell as Shell)) throw new UsageError(`Name the shell: sheaf completion ${SHELLS.join('|')}${v.shell ? ` (not '${v.shell}')` : ''}.`);
    return { shell: v.shell as Shell };
  },
  async run({ output }, input) {
    // The whole table, admin commands included (loaded only for this).
    const { COMMANDS } = await import('../main.ts');
    output.out(completionScript(input.shell, COMMANDS).trimEnd());
  },
};

export const completionCommands: ClientCommand<any>[] = [completion];
