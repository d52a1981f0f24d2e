import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { describeError, formErrors } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { holds } from '../../api/access.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { useFormat } from '../../api/format.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { NumberField } from '../../ui/NumberField.tsx';
import { NoticePage } from '../../ui/NoticePage.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { SettingsSection } from '../../ui/SettingsSection.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { categoriesQuery, useCreateCategory, useUpdateCategory, type ExpenseCategory } from './api.ts';
import { useCategoryTexts } from './texts.ts';

const FIELDS = ['name', 'unit_name', 'unit_price'] as const;

/**
 * Settings → Expense categories: what people pick when they record an expense.
 * Owners, administrators and managers with Edit clients and tasks (the API's rule
 * for writing categories) create, rename, price and archive or restore them; anyone
 * else who types the address is told it is not for their role, and sees no controls.
 */
export function ExpenseCategoriesPage() {
  const { workspace } = useWorkspaceSession();
  const t = useCategoryTexts();
  if (!holds(workspace, 'edit_clients_and_tasks')) {
    return (
      <NoticePage heading={t('heading')} title={t('notForRoleTitle')}>
        {t('notForRole')}
      </NoticePage>
    );
  }
  return <ManageCategories />;
}

function ManageCategories() {
  const categories = useQuery(categoriesQuery);
  const t = useCategoryTexts();
  const [done, setDone] = useState<string | null>(null);
  const active = categories.data?.filter((c) => c.is_active) ?? [];
  const archived = categories.data?.filter((c) => !c.is_active) ?? [];
  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <div>
        <PageHeading>{t('heading')}</PageHeading>
        <p className="mt-2 text-sm text-stone-600">{t('intro')}</p>
      </div>
      {categories.isError && <Alert>{describeError(categories.error).message}</Alert>}
      {done && <Alert tone="success">{done}</Alert>}
      <SettingsSection id="section-active" title={t('active')}>
        <div className="mb-4">
          <CategoryDialog onDone={setDone} />
        </div>
        <CategoryList categories={categories.data ? active : undefined} empty={t('noActive')} onDone={setDone} />
      </SettingsSection>
      {archived.length > 0 && (
        <SettingsSection id="section-archived" title={t('archived')} description={t('archivedHint')}>
          <CategoryList categories={archived} empty="" onDone={setDone} />
        </SettingsSection>
      )}
    </div>
  );
}

function CategoryList({ categories, empty, onDone }: { categories?: ExpenseCategory[]; empty: string; onDone: (message: string) => void }) {
  const update = useUpdateCategory();
  const t = useCategoryTexts();
  const format = useFormat();
  if (!categories) return <div className="h-24" aria-busy="true" />;
  if (!categories.length) return <p className="text-sm text-stone-600">{empty}</p>;
  const toggle = (c: ExpenseCategory) =>
    update.mutate(
      { id: c.id, body: { is_active: !c.is_active } },
      { onSuccess: (saved) => onDone(t(saved.is_active ? 'restored' : 'archivedDone', { name: saved.name })) },
    );
  return (
    <div className="flex flex-col gap-3">
      {update.error && <Alert>{describeError(update.error).message}</Alert>}
      <ul className="divide-y divide-stone-100 rounded-md border border-stone-200" aria-label={categories[0].is_active ? t('active') : t('archived')}>
        {categories.map((c) => (
          <li key={c.id} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between">
            <div className="min-w-0 text-sm">
              <p className="font-medium break-words text-stone-900">{c.name}</p>
              <p className="text-stone-600">{c.unit_price === null || c.unit_name === null
                  ? t('asAmount')
                  : t('perUnit', { price: format.number(c.unit_price, 6, 2), unit: c.unit_name })}</p>
            </div>
            <div className="flex shrink-0 gap-2">
              {c.is_active && <CategoryDialog category={c} onDone={onDone} />}
              <Button
                variant="secondary"
                aria-label={t(c.is_active ? 'archiveNamed' : 'restoreNamed', { name: c.name })}
                isPending={update.isPending && update.variables?.id === c.id}
                onPress={() => toggle(c)}
              >
                {c.is_active ? t('archive') : t('restore')}
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** "New category", or "Edit" on a category: one form for name, unit and unit price. */
function CategoryDialog({ category, onDone }: { category?: ExpenseCategory; onDone: (message: string) => void }) {
  const [open, setOpen] = useState(false);
  const t = useCategoryTexts();
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <Button variant={category ? 'secondary' : 'primary'} aria-label={category ? t('editNamed', { name: category.name }) : undefined}>
        {category ? t('edit') : t('newCategory')}
      </Button>
      <Dialog title={category ? t('editNamed', { name: category.name }) : t('newTitle')}>
        <CategoryForm
          category={category}
          onSaved={(message) => {
            setOpen(false);
            onDone(message);
          }}
        />
      </Dialog>
    </DialogTrigger>
  );
}

function CategoryForm({ category, onSaved }: { category?: ExpenseCategory; onSaved: (message: string) => void }) {
  const create = useCreateCategory();
  const update = useUpdateCategory();
  const keyFor = useIdempotencyKey();
  const t = useCategoryTexts();
  const [name, setName] = useState(category?.name ?? '');
  const [unit, setUnit] = useState(category?.unit_name ?? '');
  const [price, setPrice] = useState<number>(category?.unit_price ?? NaN);
  const mutation = category ? update : create;
  // A refusal is about the values sent: once one changes, its message goes (and no longer blocks the submit).
  const { reset } = mutation;
  useEffect(() => reset(), [name, unit, price, reset]);
  const { fieldErrors, summary } = formErrors(mutation.error, FIELDS);
  return (
    <Form
      validationErrors={fieldErrors}
      onSubmit={(event) => {
        event.preventDefault();
        if (mutation.isPending) return;
        // Both or neither: the server says which one is missing when only one is given.
        const unitBody = {
          unit_name: unit.trim() === '' ? null : unit.trim(),
          unit_price: Number.isNaN(price) ? null : price,
        };
        if (category) {
          update.mutate({ id: category.id, body: { name: name.trim(), ...unitBody } }, { onSuccess: (saved) => onSaved(t('saved', { name: saved.name })) });
        } else {
          const body = { name: name.trim(), ...(unitBody.unit_name === null && unitBody.unit_price === null ? {} : unitBody) };
          create.mutate({ body, key: keyFor(body) }, { onSuccess: (saved) => onSaved(t('added', { name: saved.name })) });
        }
      }}
    >
      {summary && <Alert>{summary}</Alert>}
      <TextField name="name" label={t('name')} value={name} onChange={setName} isRequired autoFocus maxLength={255} />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          name="unit_name"
          label={t('unit')}
          description={t('unitHint')}
          value={unit}
          onChange={setUnit}
          maxLength={64}
        />
        <NumberField
          name="unit_price"
          label={t('unitPrice')}
          description={t('unitPriceHint')}
          value={price}
          onChange={setPrice}
          minValue={0}
          formatOptions={{ minimumFractionDigits: 0, maximumFractionDigits: 6 }}
        />
      </div>
      {category && category.unit_price !== null && (
        <p className="text-sm text-stone-600">{t('newPriceNote')}</p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" slot="close">
          {t('cancel')}
        </Button>
        <Button type="submit" isPending={mutation.isPending}>
          {category ? t('save') : t('add')}
        </Button>
      </div>
    </Form>
  );
}
