/**
 * The text and archive tools the shell engine implements itself, GNU's way, over or instead of just-bash's: one
 * list for the engine's command table. Each command lives in its own module; this one only gathers them.
 */
import type { CustomCommand } from 'just-bash';
import { archiveCommands } from './archive-commands.ts';
import { awkCommands } from './awk-command.ts';
import { basencCommands } from './basenc-command.ts';
import { bcCommands } from './bc-command.ts';
import { cksumCommands } from './cksum-command.ts';
import { cmpCommands } from './cmp-command.ts';
import { commCommands } from './comm-command.ts';
import { cutCommands } from './cut-command.ts';
import { diffCommands } from './diff-command.ts';
import { digestCommands } from './digest-command.ts';
import { exprCommands } from './expr-command.ts';
import { factorCommands } from './factor-command.ts';
import { gzipCommands, zgrepCommands } from './gzip-command.ts';
import { headTailCommands } from './head-tail.ts';
import { hexdumpCommands } from './hexdump-command.ts';
import { numfmtCommands } from './numfmt-command.ts';
import { odCommands } from './od-command.ts';
import { pasteCommands } from './paste-command.ts';
import { patchCommands } from './patch-command.ts';
import { edCommands } from './ed-command.ts';
import { seqCommands } from './seq-command.ts';
import { shufCommands } from './shuf-command.ts';
import { sortCommands } from './sort-command.ts';
import { trCommands } from './tr-command.ts';
import { tsortCommands } from './tsort-command.ts';
import { uniqCommands } from './uniq-command.ts';
import { wcCommands } from './wc-command.ts';
import { xargsCommands } from './xargs-command.ts';
import { xxdCommands } from './xxd-command.ts';
import { fmtCommand } from './fmt-command.ts';
import { prCommand } from './pr-command.ts';
import { tacCommands } from './tac-command.ts';
import { joinCommands } from './join-command.ts';
import { nlCommands } from './nl-command.ts';
import { ZSTD_COMMAND_NAMES, zstdCommands } from './zstd-command.ts';

/** Commands just-bash lacks that this list adds (each needs its `/bin` stub to be found on PATH). */
export const TEXT_COMMAND_NAMES: readonly string[] = ['sha224sum', 'sha384sum', 'sha512sum', 'b2sum', 'cmp', 'sdiff', 'shuf', 'cksum', 'sum', 'numfmt', 'base32', 'basenc', 'patch', 'ed', 'xxd', 'bc', 'factor', 'tsort', 'hexdump', 'hd', 'zgrep', 'fmt', 'pr', ...ZSTD_COMMAND_NAMES];

/** The commands of the text modules, for just-bash's `customCommands`. */
export function textCommands(): CustomCommand[] {
  return [...diffCommands(), ...wcCommands(), ...uniqCommands(), ...sortCommands(), ...trCommands(), ...digestCommands(), ...headTailCommands(), ...archiveCommands(), ...cmpCommands(), ...shufCommands(), ...cksumCommands(), ...numfmtCommands(), ...odCommands(), ...xargsCommands(), ...cutCommands(), ...basencCommands(), ...gzipCommands(), ...patchCommands(), ...edCommands(), ...awkCommands(), ...xxdCommands(), ...commCommands(), ...bcCommands(), ...pasteCommands(), ...factorCommands(), ...tsortCommands(), ...hexdumpCommands(), ...seqCommands(), ...exprCommands(), ...zgrepCommands(), fmtCommand(), prCommand(), ...tacCommands(), ...joinCommands(), ...nlCommands(), ...zstdCommands()];
}
