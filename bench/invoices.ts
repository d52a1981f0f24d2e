/**
 * Invoice figures (issue 6): on PostgreSQL,
 *   1. the wall time of POST /api/v2/invoices importing 10,000 detailed time
 *      entries into one invoice (10,000 lines, each entry locked, priced at its
 *      date's rate, rounded and linked), through the full HTTP stack (inject);
 *   2. the render time of a 500-line invoice PDF (pdfkit), median of runs;
 *   3. the same invoice as Factur-X (the PDF made PDF/A-3 with its CII XML
 *      embedded, issue 25), runs interleaved with plain renders of the same
 *      document, and the ratio of the two medians (issue 25 aims at ≤ 2×).
 *
 *   node bin/run-ts.js bench/invoices.ts [--entries 10000] [--lines 500] [--runs 5]
 *
 * DATABASE_URL selects PostgreSQL (default postgres://root@127.0.0.1:5432/test);
 * the run works in its own schema, dropped at the end. Results are printed and
 * written to .bench/invoices.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { newId } from '../src/ids.ts';
import { loadInvoiceDocument, renderInvoicePdf } from '../src/modules/billing/invoices/pdf.ts';
import { withTenant } from '../src/db/tenant.ts';
import { createWorkspace } from '../src/provisioning.ts';
import { createMember } from '../src/modules/people/users/service.ts';
import { createKey } from '../src/modules/people/credentials/service.ts';
import { operatorPrincipal } from '../src/access/operator.ts';
import { benchCommand, formatNumber, recordPerformance } from './performance.ts';
import { postgresUrl, schemaWayOut } from './harness.ts';

const { values } = parseArgs({ options: { entries: { type: 'string' }, lines: { type: 'string' }, runs: { type: 'string' } } });
const ENTRIES = Number(values.entries ?? 10_000);
const LINES = Number(values.lines ?? 500);
const RUNS = Number(values.runs ?? 5);
const url = postgresUrl();
const schema = `sheaf_bench_${randomBytes(4).toString('hex')}`;

const database = await openDatabase({ databaseUrl: url, schema, poolSize: 10 });
const db = database.db;
const exit = schemaWayOut(url, schema, { close: () => database.close() });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  await migrate(db);
  const company = await createWorkspace(db, { name: 'Bench Studio', address: '1 Bench Road\nBerlin', currency: 'EUR', rounding: 'up', rounding_minutes: 15 });
  const c = company.id;
  const owner = await createMember(db, operatorPrincipal(c), { email: `owner-${schema}@example.com`, first_name: 'Olive', last_name: 'Owner', role: 'owner' });
  const { secret } = await createKey(db, operatorPrincipal(c), { userId: owner.user_id, kind: 'integration' });
  const headers = { authorization: `Bearer ${secret}`, 'service-account-id': c };
  const clientId = newId();
  await db.insertInto('clients').values({ company_id: c, id: clientId, name: 'Globex', address: '2 Side Road' }).execute();
  const projectId = newId();
  await db.insertInto('projects').values({ company_id: c, id: projectId, client_id: clientId, name: 'Website', bill_by: 'tasks' }).execute();
  const tasks = [newId(), newId(), newId()];
  for (const [i, id] of tasks.entries()) {
    await db.insertInto('tasks').values({ company_id: c, id, name: `Task ${i}` }).execute();
    await db.insertInto('project_task_assignments').values({ company_id: c, project_id: projectId, task_id: id }).execute();
    await db.insertInto('rates').values({ company_id: c, id: newId(), kind: 'billable', project_id: projectId, task_id: id, effective_from: '2020-01-01', hourly_rate: String(80 + 20 * i) }).execute();
    await db.insertInto('rates').values({ company_id: c, id: newId(), kind: 'billable', project_id: projectId, task_id: id, effective_from: '2025-06-01', hourly_rate: String(90 + 20 * i) }).execute();
  }
  const rows = Array.from({ length: ENTRIES }, (_, i) => ({
    company_id: c,
    id: newId(),
    user_id: owner.user_id,
    project_id: projectId,
    task_id: tasks[i % 3],
    spent_date: new Date(Date.UTC(2025, 0, 1) + (i % 365) * 86_400_000).toISOString().slice(0, 10),
    duration_seconds: 600 + (i % 50) * 60,
    notes: `Entry ${i}`,
    billable: true,
    source: 'api' as const,
    approval_status: 'approved' as const,
  }));
  for (let i = 0; i < rows.length; i += 1000) await db.insertInto('time_entries').values(rows.slice(i, i + 1000)).execute();

  const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '1000000', DATABASE_URL: url }), db });
  const t0 = performance.now();
  const res = await app.inject({
    method: 'POST',
    url: '/api/v2/invoices',
    headers,
    payload: { client_id: clientId, line_items_import: { time: { summary_type: 'detailed' } } },
  });
  const importMs = performance.now() - t0;
  if (res.statusCode !== 201) throw new Error(`import failed: ${res.statusCode} ${res.body.slice(0, 500)}`);
  const imported = res.json();
  const billed = await db.selectFrom('time_entries').select((eb) => eb.fn.countAll<string>().as('n')).where('company_id', '=', c).where('invoice_id', '=', imported.id).executeTakeFirstOrThrow();

  const t1 = performance.now();
  const got = await app.inject({ method: 'GET', url: `/api/v2/invoices/${imported.id}`, headers });
  const getMs = performance.now() - t1;

  // A 500-line invoice (explicit lines) and its PDF.
  const lines = Array.from({ length: LINES }, (_, i) => ({ description: `Line ${i + 1}: consulting and implementation work`, quantity: 1 + (i % 7) * 0.25, unit_price: 95 + (i % 5) }));
  const explicit = await app.inject({ method: 'POST', url: '/api/v2/invoices', headers, payload: { client_id: clientId, tax: 19, discount: 5, line_items: lines } });
  if (explicit.statusCode !== 201) throw new Error(`explicit create failed: ${explicit.statusCode} ${explicit.body.slice(0, 300)}`);
  const doc = await withTenant(db, c, (trx) => loadInvoiceDocument(trx, c, explicit.json().id));
  const renders: number[] = [];
  let bytes = 0;
  await renderInvoicePdf(doc); // warm-up (fonts, code)
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    bytes = (await renderInvoicePdf(doc)).length;
    renders.push(performance.now() - t);
  }
  // Factur-X of the same document: the e-invoice parts it needs, then plain and Factur-X renders in turn.
  const { renderEInvoice } = await import('../src/modules/billing/invoices/e-invoice.ts');
  const complete = {
    ...doc,
    workspace: { ...doc.workspace, vat_id: 'DE123456789', sender_email: 'billing@bench.example' },
    seller: { ...doc.seller, country_code: 'DE', city: 'Berlin', postal_code: '10115', street: '1 Bench Road' },
    buyer: { ...doc.buyer, country_code: 'DE', invoice_email: 'ap@globex.example' },
  };
  await renderEInvoice(complete, { kind: 'facturx' }); // warm-up (the library, its schema)
  const plainRuns: number[] = [];
  const facturxRuns: number[] = [];
  let facturxBytes = 0;
  for (let i = 0; i < RUNS; i++) {
    let t = performance.now();
    await renderInvoicePdf(complete);
    plainRuns.push(performance.now() - t);
    t = performance.now();
    facturxBytes = (await renderEInvoice(complete, { kind: 'facturx' })).length;
    facturxRuns.push(performance.now() - t);
  }

  const t2 = performance.now();
  const http = await app.inject({ method: 'GET', url: `/api/v2/invoices/${explicit.json().id}/pdf`, headers });
  const httpPdfMs = performance.now() - t2;
  await app.close();

  const results = {
    database: 'postgresql',
    import: { entries: ENTRIES, lines: imported.line_items.length, billed: Number(billed.n), amount: imported.amount, wall_ms: Math.round(importMs) },
    get_10000_line_invoice_ms: Math.round(getMs),
    get_status: got.statusCode,
    pdf: { lines: LINES, runs: RUNS, median_ms: Math.round(median(renders)), min_ms: Math.round(Math.min(...renders)), bytes, http_ms: Math.round(httpPdfMs), http_status: http.statusCode },
    facturx: {
      lines: LINES,
      runs: RUNS,
      plain_median_ms: Math.round(median(plainRuns)),
      facturx_median_ms: Math.round(median(facturxRuns)),
      ratio: Number((median(facturxRuns) / median(plainRuns)).toFixed(2)),
      bytes: facturxBytes,
    },
  };
  console.log(JSON.stringify(results, null, 2));
  mkdirSync('.bench', { recursive: true });
  writeFileSync('.bench/invoices.json', JSON.stringify(results, null, 2));
  const { facturx } = results;
  const aim = 2;
  recordPerformance([
    {
      key: 'facturx-render',
      path: `Factur-X (PDF/A-3 with its CII XML) of a ${formatNumber(LINES)}-line invoice`,
      figure: `${formatNumber(facturx.facturx_median_ms)} ms median of ${RUNS}`,
      baseline: `the plain PDF of the same invoice, interleaved: ${formatNumber(facturx.plain_median_ms)} ms`,
      ratio: formatNumber(facturx.ratio, 2),
      cpu: '—',
      aim: `ratio ≤ ${aim} (issue 25)`,
      met: facturx.ratio <= aim,
      command: benchCommand('bench:invoices'),
    },
  ]);
} finally {
  await exit.cleanup();
}
