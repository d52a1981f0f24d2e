import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { isAdministrator } from '../../api/access.ts';
import { describeError, formErrors } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { NoticePage } from '../../ui/NoticePage.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { SettingsSection } from '../../ui/SettingsSection.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { itemCategoriesQuery, useCreateItemCategory, useUpdateItemCategory, type ItemCategory } from './api.ts';
import { useItemCategoryTexts } from './texts.ts';

/**
 * Settings → Item categories: the kinds an invoice line can have. Owners and
 * administrators add, rename, archive and restore them (the built-in Service and
 * Product excepted); anyone else who types the address is told it is not for
 * their role, and sees no controls.
 */
export function ItemCategoriesPage() {
  const { workspace } = useWorkspaceSession();
  const t = useItemCategoryTexts();
  if (!isAdministrator(workspace)) {
    return (
      <NoticePage heading={t('heading')} title={t('notForRoleTitle')}>
        {t('notForRole')}
      </NoticePage>
    );
  }
  return <ManageCategories />;
}

function ManageCategories() {
  const categories = useQuery(itemCategoriesQuery);
  const t = useItemCategoryTexts();
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
        <CategoryList categories={categories.data ? active : undefined} label={t('active')} onDone={setDone} />
      </SettingsSection>
      {archived.length > 0 && (
        <SettingsSection id="section-archived" title={t('archived')} description={t('archivedHint')}>
          <CategoryList categories={archived} label={t('archived')} onDone={setDone} />
        </SettingsSection>
      )}
    </div>
  );
}

function CategoryList({ categories, label, onDone }: { categories?: ItemCategory[]; label: string; onDone: (message: string) => void }) {
  const update = useUpdateItemCategory();
  const t = useItemCategoryTexts();
  if (!categories) return <div className="h-24" aria-busy="true" />;
  const toggle = (c: ItemCategory) =>
    update.mutate(
      { id: c.id, body: { is_active: !c.is_active } },
      { onSuccess: (saved) => onDone(t(saved.is_active ? 'restored' : 'archivedDone', { name: saved.name })) },
    );
  return (
    <div className="flex flex-col gap-3">
      {update.error && <Alert>{describeError(update.error).message}</Alert>}
      <ul className="divide-y divide-stone-100 rounded-md border border-stone-200" aria-label={label}>
        {categories.map((c) => (
          <li key={c.id} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between">
            <p className="flex min-w-0 flex-wrap items-center gap-2 text-sm">
              <span className="font-medium break-words text-stone-900">{c.name}</span>
              {c.is_builtin && (
                <span className="rounded-full bg-stone-100 px-2 py-0.5 text-xs font-medium text-stone-700" title={t('builtInHint')}>
                  {t('builtIn')}
                </span>
              )}
            </p>
            {!c.is_builtin && (
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
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** "New category", or "Rename" on a category: one form, its name. */
function CategoryDialog({ category, onDone }: { category?: ItemCategory; onDone: (message: string) => void }) {
  const [open, setOpen] = useState(false);
  const t = useItemCategoryTexts();
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <Button variant={category ? 'secondary' : 'primary'} aria-label={category ? t('renameNamed', { name: category.name }) : undefined}>
        {category ? t('rename') : t('newCategory')}
      </Button>
      <Dialog title={category ? t('renameNamed', { name: category.name }) : t('newTitle')}>
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

function CategoryForm({ category, onSaved }: { category?: ItemCategory; onSaved: (message: string) => void }) {
  const create = useCreateItemCategory();
  const update = useUpdateItemCategory();
  const keyFor = useIdempotencyKey();
  const t = useItemCategoryTexts();
  const [name, setName] = useState(category?.name ?? '');
  const mutation = category ? update : create;
  // A refusal is about the name sent: once it changes, its message goes.
  const { reset } = mutation;
  useEffect(() => reset(), [name, reset]);
  const { fieldErrors, summary } = formErrors(mutation.error, ['name']);
  return (
    <Form
      validationErrors={fieldErrors}
      onSubmit={(event) => {
        event.preventDefault();
        if (mutation.isPending) return;
        const trimmed = name.trim();
        if (category) {
          update.mutate({ id: category.id, body: { name: trimmed } }, { onSuccess: (saved) => onSaved(t('renamed', { name: saved.name })) });
        } else {
          create.mutate({ name: trimmed, key: keyFor({ name: trimmed }) }, { onSuccess: (saved) => onSaved(t('added', { name: saved.name })) });
        }
      }}
    >
      {summary && <Alert>{summary}</Alert>}
      <TextField name="name" label={t('name')} description={t('nameHint')} value={name} onChange={setName} isRequired autoFocus maxLength={64} />
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
