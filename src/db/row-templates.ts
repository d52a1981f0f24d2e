import pg from 'pg';

/**
 * node-postgres (8.x, lib/result.js) sets every result up from its RowDescription in
 * `addFields`: a type parser per column, and an empty row (each column null) that every
 * row of the result is then spread from. It builds that empty row in an
 * `Object.create(null)` object and spreads it: V8 keeps a null-prototype object in
 * dictionary mode and copies it property by property: 2.7–3.4 µs for the 16 columns of
 * the authentication query and 7–9.5 µs for the 42 of a time entry's create (Node.js 20 and
 * 24), on every statement. Built in an ordinary object and spread: 0.4 and 1.1 µs.
 *
 * `useFastRowTemplates` replaces `Result.prototype.addFields` with a version that leaves the
 * result in exactly the state the library's leaves it (the same fields, parsers and empty
 * row, with the same keys in the same order), so every row comes out as before. A column named
 * `__proto__` (an ordinary object's `__proto__` key sets its prototype) goes to the
 * library's own method. Called by openDatabase for node-postgres pools; PGlite has no use of
 * it. test/unit/row-templates.test.ts compares the two for many result shapes. (Issue 24;
 * docs/decisions.md, "Hot paths: node-postgres's empty rows".)
 */

interface FieldDescription {
  name: string;
  dataTypeID: number;
  format?: string;
}

interface TypeSource {
  getTypeParser(oid: number, format: string): unknown;
}

/** The part of node-postgres's Result that addFields sets up. */
export interface ResultSetup {
  fields: FieldDescription[];
  _parsers: unknown[] | undefined;
  _types: TypeSource | undefined;
  _prebuiltEmptyResultObject: Record<string, null> | null;
}

type AddFields = (this: ResultSetup, fields: FieldDescription[]) => void;

/** Where the replaced method is kept, so that a second load of this module still finds the library's. */
const LIBRARY = Symbol.for('sheaf.pg.libraryAddFields');

const resultPrototype = (pg as unknown as { Result: { prototype: { addFields: AddFields; [LIBRARY]?: AddFields } } }).Result.prototype;

/** node-postgres's own addFields. */
export const libraryAddFields: AddFields = resultPrototype[LIBRARY] ?? resultPrototype.addFields;

export function fastAddFields(this: ResultSetup, fieldDescriptions: FieldDescription[]): void {
  for (const desc of fieldDescriptions) if (desc.name === '__proto__') return libraryAddFields.call(this, fieldDescriptions);
  const types = this._types ?? (pg.types as unknown as TypeSource);
  this.fields = fieldDescriptions;
  if (fieldDescriptions.length) this._parsers = new Array(fieldDescriptions.length);
  const row: Record<string, null> = {};
  for (let i = 0; i < fieldDescriptions.length; i++) {
    const desc = fieldDescriptions[i];
    row[desc.name] = null;
    this._parsers![i] = types.getTypeParser(desc.dataTypeID, desc.format || 'text');
  }
  this._prebuiltEmptyResultObject = { ...row };
}

export function useFastRowTemplates(): void {
  resultPrototype[LIBRARY] ??= libraryAddFields;
  resultPrototype.addFields = fastAddFields;
}
