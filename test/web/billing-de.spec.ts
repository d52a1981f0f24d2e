import { expect, ok, test } from './fixtures.ts';
import { visit } from './visit.ts';

/**
 * The invoices and expenses areas in German (issue 21 items 11 and 12): the owner's
 * language, date pattern and duration style come from the profile; headings, buttons,
 * empty states, states and kinds are German, dates DD.MM.YYYY, numbers with a decimal
 * comma and money as German writes it (1.336,00 €).
 */

test('invoices in German: the list, one invoice with its lines and totals in EUR, the new-invoice page', async ({ page, workspace }) => {
  await workspace.seed.german();

  // Empty first: the German empty state.
  await page.goto('/invoices');
  await expect(page.getByRole('heading', { level: 1, name: 'Rechnungen' })).toBeVisible();
  await expect(page.getByText('Noch keine Rechnungen.')).toBeVisible();

  // An invoice in EUR: 3.5 × 80 taxed at 20 %, 1 × 1,000 untaxed.
  const acme = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Acme', currency: 'EUR' }));
  const invoice = await ok(
    workspace.api('POST', '/api/v2/invoices', {
      client_id: acme.id,
      subject: 'Website',
      issue_date: '2026-11-02',
      due_date: '2026-12-02',
      tax: 20,
      line_items: [
        { kind: 'Service', description: 'Design', quantity: 3.5, unit_price: 80, taxed: true },
        { kind: 'Product', description: 'Hosting', quantity: 1, unit_price: 1000, taxed: false },
      ],
    }),
  );
  expect(invoice).toMatchObject({ subtotal: 1280, tax_amount: 56, amount: 1336 });

  await visit(page, '/invoices', 'invoices-de');
  await expect(page.getByRole('link', { name: 'Neue Rechnung' })).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(`Rechnung ${invoice.number}, Acme`) });
  await expect(row).toContainText('02.11.2026');
  await expect(row).toContainText('02.12.2026');
  await expect(row).toContainText('1.336,00 €');
  await expect(row).toContainText('Entwurf');
  await expect(page.getByRole('columnheader', { name: 'Fällig', exact: true })).toBeVisible();

  await visit(page, `/invoices/${invoice.id}`, 'invoice-de');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Rechnung ${invoice.number}`);
  await expect(page.getByText('Rechnungsdatum')).toBeVisible();
  await expect(page.getByText('02.11.2026')).toBeVisible();
  const design = page.getByRole('row', { name: /Design/ });
  await expect(design).toContainText('Leistung'); // the kind Sheaf writes, in the person's language
  await expect(design).toContainText('3,5');
  await expect(design).toContainText('80,00 €');
  await expect(design).toContainText('280,00 €');
  await expect(design).toContainText('Steuer');
  await expect(page.getByRole('row', { name: /Hosting/ })).toContainText('Produkt'); // the built-in Product reads in the person's language
  const totals = page.getByRole('definition');
  for (const amount of ['1.280,00 €', '56,00 €', '1.336,00 €']) await expect(totals.filter({ hasText: amount }).first()).toBeVisible();
  await expect(page.getByText('Steuer (20 %)')).toBeVisible();
  await expect(page.getByText('Gesamtbetrag')).toBeVisible();
  for (const name of ['Rechnung senden', 'PDF herunterladen', 'Entwurf löschen']) await expect(page.getByRole('button', { name }).or(page.getByRole('link', { name }))).toBeVisible();

  await visit(page, '/invoices/new', 'invoices-new-de');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Neue Rechnung');
  await expect(page.getByRole('heading', { name: 'Was abgerechnet wird' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Kunde' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Vorschau' })).toBeDisabled();
  await expect(page.getByText('Wählen Sie zuerst einen Kunden.')).toBeVisible();

});

test('expenses in German: the empty list, the list with amounts in EUR and units, the new-expense form', async ({ page, workspace }) => {
  await workspace.seed.german();
  await page.goto('/expenses');
  await expect(page.getByRole('heading', { level: 1, name: 'Ausgaben' })).toBeVisible();
  await expect(page.getByText('Noch keine Ausgaben.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Erfassen Sie Ihre erste Ausgabe' })).toBeVisible();

  // An expense of 1,234.50 EUR and 12.5 km of mileage (0.30 a km), on the owner's project of a client billed in EUR.
  const acme = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Acme', currency: 'EUR' }));
  const project = await ok(workspace.api('POST', '/api/v2/projects', { client_id: acme.id, name: 'Intranet' })); // its creator is assigned
  const categories = (await ok(workspace.api('GET', '/api/v2/expense_categories'))).expense_categories.filter((c: { unit_price: number | null }) => c.unit_price === null);
  const mileage = await ok(workspace.api('POST', '/api/v2/expense_categories', { name: 'Kilometergeld', unit_name: 'km', unit_price: 0.3 }));
  await ok(
    workspace.api('POST', '/api/v2/expenses', { project_id: project.id, expense_category_id: categories[0].id, spent_date: '2026-11-03', total_cost: 1234.5, notes: 'Hotel in Lyon' }),
  );
  await ok(workspace.api('POST', '/api/v2/expenses', { project_id: project.id, expense_category_id: mileage.id, spent_date: '2026-11-04', units: 12.5, notes: 'Fahrt' }));

  await visit(page, '/expenses', 'expenses-de');
  await expect(page.getByRole('link', { name: 'Ausgabe erfassen' })).toBeVisible();
  const hotel = page.getByRole('row', { name: /Hotel in Lyon/ });
  await expect(hotel).toContainText('03.11.2026');
  await expect(hotel.getByRole('link', { name: /^Ausgabe vom 03\.11\.2026 bearbeiten/ })).toBeVisible();
  await expect(hotel).toContainText(/1\.234,50\s€/);
  const drive = page.getByRole('row', { name: /Fahrt/ });
  await expect(drive).toContainText('12,5 km');
  await expect(drive).toContainText(/3,75\s€/);
  await expect(page.getByRole('button', { name: /Zeitraum$/ })).toContainText('Gesamter Zeitraum');

  await visit(page, '/expenses/new', 'expense-new-de');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ausgabe erfassen');
  await page.getByRole('combobox', { name: 'Projekt', exact: true }).fill('Intra');
  await page.getByRole('option', { name: 'Acme - Intranet' }).click();
  await page.getByRole('button', { name: /Kategorie$/ }).click();
  await expect(page.getByRole('option', { name: /Kilometergeld/ })).toContainText(/0,30\s€ pro km/);
  await page.getByRole('option', { name: /Kilometergeld/ }).click();
  await expect(page.getByRole('textbox', { name: 'Einheiten (km)' })).toBeVisible();
  await expect(page.getByText(/0,30\s€ pro km; der Gesamtbetrag wird beim Speichern berechnet\./)).toBeVisible();
  await expect(page.getByText('Foto oder PDF des Belegs hier ablegen oder')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Ausgabe erfassen' })).toBeVisible();
});
