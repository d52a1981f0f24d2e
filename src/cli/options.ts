import { isId } from '../ids.ts';
import type { Values } from './command.ts';
import { UsageError } from './output.ts';

/**
 * Option parsing shared by the admin commands (no database): each command
 * file checks its own options with these, so a missing, blank or malformed
 * option reads the same everywhere (exit code 2).
 */

/** A required option's value; missing or blank is a usage error. */
export function required(values: Values, name: string): string {
  const v = values[name];
  if (v === undefined || v === '') throw new UsageError(`--${name} is required.`);
  return v;
}

/** An optional `true`/`false` option. */
export function bool(values: Values, name: string): boolean | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  if (v !== 'true' && v !== 'false') throw new UsageError(`--${name} must be true or false, not '${v}'.`);
  return v === 'true';
}

/** `--workspace`: a workspace id. */
export function workspaceOption(values: Values): string {
  return optionalWorkspaceOption({ workspace: required(values, 'workspace') })!;
}

/** `--workspace` where it is optional (every workspace without it): a workspace id when given. */
export function optionalWorkspaceOption(values: Values): string | undefined {
  const id = values.workspace;
  if (id !== undefined && !isId(id)) throw new UsageError(`--workspace must be a workspace id (see "sheaf admin workspace list"), not '${id}'.`);
  return id;
}
