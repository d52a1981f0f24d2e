import type { Command } from '../command.ts';
import { UsageError } from '../output.ts';
import type { ClientCommand } from './command.ts';

/**
 * `sheaf completion bash|zsh|fish`: a completion script written from the
 * command table itself (main.ts's COMMANDS: every command's words, options,
 * positionals and summary), so it lists exactly the commands and options this
 * sheaf has. Each script walks the words typed so far down the table: a word
 * is a subcommand only when the command typed so far has it, so a positional
 * (an entry id, a file) or an option ends the command. At the cursor it offers
 * the subcommands of a group; for a command its options, or, for a word that
 * is not an option, the values of its positional (the shells of `completion`)
 * or file names (`import FILE`, `backup … DIR`); after an option that takes a
 * file (--out, --receipt), file names.
 */

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

/** Options whose value is a file or directory name. */
const FILE_OPTIONS = ['out', 'receipt'];
/** Positionals that name a file or directory. */
const FILE_POSITIONALS = ['file', 'dir'];

type Described = Pick<Command<unknown>, 'name' | 'summary' | 'options' | 'positionals' | 'positionalValues'>;

interface Node {
  /** The words so far, e.g. "admin key". */
  path: string;
  /** The next words, with a summary each. */
  next: Map<string, string>;
  /** The options when the path is a command: "--name" and whether it takes a value. */
  options: Array<{ flag: string; value: boolean }>;
  /** What its positional takes: listed values, file names, or nothing to offer. */
  args: readonly string[] | 'files';
}

/** What a command's first positional completes to. */
function argsOf(c: Described): Node['args'] {
  if (c.positionalValues) return c.positionalValues;
  return c.positionals?.some((p) => FILE_POSITIONALS.includes(p)) ? 'files' : [];
}

/** Every path of words (the empty one too) with what may follow it. */
export function commandTree(commands: Described[]): Node[] {
  const nodes = new Map<string, Node>();
  const node = (path: string) => nodes.get(path) ?? nodes.set(path, { path, next: new Map(), options: [], args: [] }).get(path)!;
  node('');
  for (const c of [...commands, { name: 'help', summary: "a command's or group's options", options: {} }] as Described[]) {
    const words = c.name.split(' ');
    words.forEach((w, i) => {
      const parent = node(words.slice(0, i).join(' '));
      if (!parent.next.has(w)) parent.next.set(w, i === words.length - 1 ? c.summary : `the ${words.slice(0, i + 1).join(' ')} commands`);
    });
    const leaf = node(c.name);
    leaf.options = [
      ...Object.entries(c.options).map(([name, o]) => ({ flag: `--${name}`, value: (o as { type: string }).type === 'string' })),
      { flag: '--json', value: false },
      { flag: '--help', value: false },
    ];
    leaf.args = argsOf(c);
  }
  return [...nodes.values()];
}

const word = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '');
const quoteSingle = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const argsWord = (n: Node) => (n.args === 'files' ? '@files' : n.args.join(' '));

function bash(nodes: Node[]): string {
  const cases = nodes
    .map((n) => `    ${quoteSingle(n.path)}) sub=${quoteSingle([...n.next.keys()].join(' '))} opts=${quoteSingle(n.options.map((o) => o.flag).join(' '))} args=${quoteSingle(argsWord(n))} ;;`)
    .join('\n');
  return `# bash completion for sheaf (written by "sheaf completion bash"; load it with
#   source <(sheaf completion bash)   or save it in ~/.local/share/bash-completion/completions/sheaf)
_sheaf_node() {
  sub="" opts="" args=""
  case "$1" in
${cases}
  esac
}
_sheaf() {
  local cur prev cmdpath="" sub opts args i w
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  case "$prev" in
    ${FILE_OPTIONS.map((o) => `--${o}`).join('|')}) COMPREPLY=($(compgen -f -- "$cur")); return ;;
  esac
  _sheaf_node ""
  # Down the table while the word is a subcommand of the command so far (a positional or an option ends it).
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ " $sub " == *" $w "* ]] || break
    cmdpath="\${cmdpath:+$cmdpath }$w"
    _sheaf_node "$cmdpath"
  done
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  elif [[ -n $sub ]]; then
    COMPREPLY=($(compgen -W "$sub" -- "$cur"))
  elif [[ $args == @files ]]; then
    COMPREPLY=($(compgen -f -- "$cur"))
  elif [[ -n $args ]]; then
    COMPREPLY=($(compgen -W "$args" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  fi
}
complete -o default -F _sheaf sheaf
`;
}

function zsh(nodes: Node[]): string {
  const cases = nodes
    .map((n) => {
      const sub = [...n.next].map(([w, s]) => quoteSingle(`${w}:${s}`)).join(' ');
      const opts = n.options.map((o) => quoteSingle(o.flag)).join(' ');
      const args = n.args === 'files' ? "'@files'" : n.args.map(quoteSingle).join(' ');
      return `    ${quoteSingle(n.path)}) sub=(${sub}) opts=(${opts}) args=(${args}) ;;`;
    })
    .join('\n');
  return `#compdef sheaf
# zsh completion for sheaf (written by "sheaf completion zsh"; load it with
#   source <(sheaf completion zsh)   or save it as _sheaf in a directory of $fpath)
_sheaf_node() {
  sub=() opts=() args=()
  case $1 in
${cases}
  esac
}
_sheaf() {
  local cmdpath="" i w
  local -a sub opts args names
  case \${words[CURRENT-1]} in
    ${FILE_OPTIONS.map((o) => `--${o}`).join('|')}) _files; return ;;
  esac
  _sheaf_node ""
  # Down the table while the word is a subcommand of the command so far (a positional or an option ends it).
  for ((i = 2; i < CURRENT; i++)); do
    w=\${words[i]}
    names=(\${sub%%:*})
    (( \${names[(Ie)$w]} )) || break
    cmdpath="\${cmdpath:+$cmdpath }$w"
    _sheaf_node "$cmdpath"
  done
  if [[ \${words[CURRENT]} == -* ]]; then
    compadd -- $opts
  elif (( \${#sub} )); then
    _describe -t commands 'sheaf command' sub
  elif [[ \${args[1]} == @files ]]; then
    _files
  elif (( \${#args} )); then
    compadd -- $args
  else
    compadd -- $opts
  fi
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
  const subs = nodes
    .filter((n) => n.next.size)
    .map((n) => `        case ${quoteSingle(n.path)}\n            printf '%s\\n' ${[...n.next.keys()].map(word).join(' ')}`)
    .join('\n');
  const lines = nodes.flatMap((n) => {
    const when = `-n ${quoteSingle(`__sheaf_path "${n.path}"`)}`;
    return [
      ...[...n.next].map(([w, s]) => `complete -c sheaf -f ${when} -a ${word(w)} -d ${quoteSingle(s.slice(0, 80))}`),
      ...n.options.map((o) => `complete -c sheaf ${FILE_OPTIONS.includes(o.flag.slice(2)) ? '-F' : '-f'} ${when} -l ${word(o.flag.slice(2))}${o.value ? ' -r' : ''}`),
      ...(n.args === 'files' ? [`complete -c sheaf -F ${when}`] : n.args.length ? [`complete -c sheaf -f ${when} -a ${quoteSingle(n.args.join(' '))}`] : []),
    ];
  });
  return `# fish completion for sheaf (written by "sheaf completion fish"; load it with
#   sheaf completion fish | source   or save it as ~/.config/fish/completions/sheaf.fish)
function __sheaf_subcommands
    switch $argv[1]
${subs}
    end
end
# Whether the command typed so far is $argv[1]: down the table while a word is a
# subcommand of the command so far (a positional or an option ends it).
function __sheaf_path
    set -l typed (commandline -opc)
    set -e typed[1]
    set -l path ''
    for w in $typed
        contains -- $w (__sheaf_subcommands $path); or break
        set path (string trim -- "$path $w")
    end
    test "$path" = "$argv[1]"
end
complete -c sheaf -f
${lines.join('\n')}
`;
}

export function completionScript(shell: Shell, commands: Described[]): string {
  const nodes = commandTree(commands);
  return shell === 'bash' ? bash(nodes) : shell === 'zsh' ? zsh(nodes) : fish(nodes);
}

const completion: ClientCommand<{ shell: Shell }> = {
  name: 'completion',
  usage: 'bash|zsh|fish',
  summary: 'print a shell completion script of every command and option, e.g. source <(sheaf completion bash)',
  options: {},
  positionals: ['shell'],
  positionalValues: SHELLS,
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
