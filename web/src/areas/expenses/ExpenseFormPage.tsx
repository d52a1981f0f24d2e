import { parseDate, type CalendarDate } from '@internationalized/date';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { DialogTrigger, DropZone, FileTrigger, Label, Text, TextArea, TextField } from 'react-aria-components';
import { useNavigate, useParams } from 'react-router';
import { describeError, formErrors } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { useSession } from '../../api/session.ts';
import { useFormat } from '../../api/format.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { ComboBox } from '../../ui/ComboBox.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { Link } from '../../ui/Link.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { Select } from '../../ui/Select.tsx';
import { cx, fieldDescription, fieldError, fieldLabel, inputBox } from '../../ui/styles.ts';
import {
  choicesQuery,
  expenseQuery,
  useCreateExpense,
  useDeleteExpense,
  useUpdateExpense,
  type Choices,
  type Expense,
  type ExpenseBody,
} from './api.ts';
import { DatePicker } from '../../ui/DatePicker.tsx';
import { NumberField } from '../../ui/NumberField.tsx';
import { ReceiptPreview, isDrawable, useObjectUrl } from './Receipt.tsx';
import { lockReason } from './status.ts';
import { useExpenseTexts } from './texts.ts';
import { FieldErrorText } from '../../ui/FieldErrorText.tsx';
import { projectLabel } from '../../ui/labels.ts';

/** The API's fields the form shows; an error naming another goes above the form. */
const FIELDS = ['project_id', 'expense_category_id', 'spent_date', 'total_cost', 'units', 'notes', 'billable', 'receipt'] as const;

/** What the API takes as a receipt (src/modules/tracking/expenses/receipts.ts); the server checks the bytes. */
const RECEIPT_ACCEPT = ['image/*', 'application/pdf'];
const RECEIPT_MAX_BYTES = 10 * 1024 * 1024;
const acceptable = (file: File) => file.type === 'application/pdf' || file.type.startsWith('image/') || file.type === '';

/** /expenses/new and /expenses/:id: record, change or delete one expense, with its receipt. */
export function ExpenseFormPage() {
  const { id } = useParams();
  const choices = useQuery(choicesQuery(id));
  const expense = useQuery({ ...expenseQuery(id ?? ''), enabled: !!id });
  const session = useSession();
  const t = useExpenseTexts();
  const title = !id ? t('form.record') : expense.data?.is_locked ? t('form.expense') : t('form.edit');
  const error = choices.error ?? expense.error;
  const ready = choices.data && (!id || expense.data);
  // Someone else's expense (a manager's view) goes back to that person's list.
  const owner = expense.data?.user_id;
  const listHref = owner && owner !== session.user.id ? `/expenses?user=${owner}` : '/expenses';
  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <div>
        <Link href={listHref} className="text-sm">
          {t('form.backToExpenses')}
        </Link>
        <PageHeading className="mt-2">{title}</PageHeading>
      </div>
      {error && !ready && <Alert>{describeError(error).message}</Alert>}
      {!ready && !error && (
        <div role="status" className="text-stone-600">
          {t('form.loading')}
        </div>
      )}
      {ready && <ExpenseForm key={id ?? 'new'} choices={choices.data} expense={id ? expense.data : undefined} listHref={listHref} />}
    </div>
  );
}

function ExpenseForm({ choices, expense, listHref }: { choices: Choices; expense?: Expense; listHref: string }) {
  const navigate = useNavigate();
  const t = useExpenseTexts();
  const format = useFormat();
  const create = useCreateExpense();
  const update = useUpdateExpense(expense?.id ?? '');
  const keyFor = useIdempotencyKey();
  const locked = expense ? lockReason(expense) : null;

  const [projectId, setProjectId] = useState<string | null>(expense?.project_id ?? null);
  const [categoryId, setCategoryId] = useState<string | null>(expense?.expense_category_id ?? null);
  const [date, setDate] = useState<CalendarDate | null>(parseDate(expense?.spent_date ?? choices.today));
  const [totalCost, setTotalCost] = useState<number>(expense && expense.units === null ? expense.total_cost : NaN);
  const [units, setUnits] = useState<number>(expense?.units ?? NaN);
  const [notes, setNotes] = useState(expense?.notes ?? '');
  const [billable, setBillable] = useState<boolean | null>(expense?.billable ?? null);
  const [file, setFile] = useState<File | null>(null);
  const [removeReceipt, setRemoveReceipt] = useState(false);
  const [fileProblem, setFileProblem] = useState<string | null>(null);

  const projects = choices.projects.filter((p) => p.can_record || p.id === expense?.project_id);
  const categories = choices.categories.filter((c) => c.is_active || c.id === expense?.expense_category_id);
  const project = choices.projects.find((p) => p.id === projectId);
  const category = choices.categories.find((c) => c.id === categoryId);
  const currency = project?.currency;
  const byUnits = category?.unit_price != null;
  // Until the person ticks it, billable follows the project's default.
  const isBillable = billable ?? project?.billable ?? true;

  // A refusal is about the values sent: once one changes, its message goes (and no longer blocks the submit).
  const { reset: resetCreate } = create;
  const { reset: resetUpdate } = update;
  useEffect(() => {
    resetCreate();
    resetUpdate();
  }, [projectId, categoryId, date, totalCost, units, notes, billable, file, removeReceipt, resetCreate, resetUpdate]);

  const saving = create.isPending || update.isPending;
  const { fieldErrors, summary } = formErrors(create.error ?? update.error, FIELDS);
  const receiptError = fileProblem ?? fieldErrors?.receipt;

  const pick = (files: File[]) => {
    const chosen = files[0];
    if (!chosen) return;
    if (!acceptable(chosen)) return setFileProblem(t('form.notAReceipt'));
    if (chosen.size > RECEIPT_MAX_BYTES) return setFileProblem(t('form.tooLarge'));
    setFileProblem(null);
    setFile(chosen);
    setRemoveReceipt(false);
  };

  const submit = () => {
    if (!projectId || !categoryId || !date) return;
    const full: ExpenseBody = {
      project_id: projectId,
      expense_category_id: categoryId,
      spent_date: date.toString(),
      ...(byUnits ? { units } : { total_cost: totalCost }),
      notes,
      billable: isBillable,
      receipt: file ?? undefined,
    };
    if (!expense) {
      // The same body (and file) retried reuses its key: the server answers once.
      const key = keyFor({ ...full, receipt: file && [file.name, file.size, file.lastModified] });
      create.mutate({ body: full, key }, { onSuccess: () => navigate(listHref) });
      return;
    }
    const changes: Partial<ExpenseBody> = {};
    if (full.project_id !== expense.project_id) changes.project_id = full.project_id;
    if (full.expense_category_id !== expense.expense_category_id) changes.expense_category_id = full.expense_category_id;
    if (full.spent_date !== expense.spent_date) changes.spent_date = full.spent_date;
    if (byUnits && (units !== expense.units || changes.expense_category_id)) changes.units = units;
    if (!byUnits && (totalCost !== expense.total_cost || expense.units !== null)) changes.total_cost = totalCost;
    if (notes !== (expense.notes ?? '')) changes.notes = notes;
    if (isBillable !== expense.billable) changes.billable = isBillable;
    if (file) changes.receipt = file;
    if (removeReceipt) changes.delete_receipt = true;
    if (Object.keys(changes).length === 0) return navigate(listHref);
    update.mutate(changes, { onSuccess: () => navigate(listHref) });
  };

  const amountFormat: Intl.NumberFormatOptions = currency ? { style: 'currency', currency } : { minimumFractionDigits: 2, maximumFractionDigits: 2 };

  return (
    <Form
      validationErrors={fieldErrors}
      aria-label={expense ? t('form.edit') : t('form.record')}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {locked && (
        <Alert tone="info" title={t('form.lockedTitle')}>
          {t(`locked.${locked}`)}
        </Alert>
      )}
      {summary && <Alert>{summary}</Alert>}
      <fieldset disabled={!!locked} className="contents">
        <ComboBox
          label={t('form.project')}
          name="project_id"
          options={projects.map((p) => ({ id: p.id, label: `${p.client_name} - ${projectLabel(p)}` }))}
          selectedKey={projectId}
          onSelectionChange={(key) => setProjectId(key === null ? null : String(key))}
          isRequired
          isDisabled={!!locked}
          emptyText={t('form.noProject')}
        />
        <Select
          label={t('form.category')}
          name="expense_category_id"
          placeholder={t('form.chooseCategory')}
          options={categories.map((c) => ({
            id: c.id,
            label: c.name,
            detail: c.unit_price != null && c.unit_name ? t('form.perUnit', { price: format.unitPrice(c.unit_price, currency ?? 'USD'), unit: c.unit_name }) : undefined,
          }))}
          selectedKey={categoryId}
          onSelectionChange={(key) => setCategoryId(key === null ? null : String(key))}
          isRequired
          isDisabled={!!locked}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <DatePicker label={t('form.date')} name="spent_date" value={date} onChange={setDate} isRequired isDisabled={!!locked} />
          {byUnits ? (
            <NumberField
              key="units"
              label={category?.unit_name ? t('form.units', { unit: category.unit_name }) : t('form.unitsUnnamed')}
              name="units"
              value={units}
              onChange={setUnits}
              minValue={0}
              formatOptions={{ maximumFractionDigits: 6 }}
              isRequired
              isDisabled={!!locked}
              description={
                category?.unit_price != null && currency
                  ? category.unit_name
                    ? t('form.unitsHintPer', { price: format.unitPrice(category.unit_price, currency), unit: category.unit_name })
                    : t('form.unitsHintPerUnit', { price: format.unitPrice(category.unit_price, currency) })
                  : t('form.unitsHint')
              }
            />
          ) : (
            <NumberField
              key={`total-${currency ?? ''}`}
              label={t('form.totalCost')}
              name="total_cost"
              value={totalCost}
              onChange={setTotalCost}
              minValue={0}
              formatOptions={amountFormat}
              isRequired
              isDisabled={!!locked}
              description={currency ? t('form.totalHintCurrency', { currency }) : t('form.totalHint')}
            />
          )}
        </div>
        <TextField name="notes" value={notes} onChange={setNotes} isDisabled={!!locked} className="flex flex-col gap-1.5">
          <Label className={fieldLabel}>{t('form.notes')}</Label>
          <TextArea rows={3} className={cx(inputBox, 'resize-y')} />
          <FieldErrorText />
        </TextField>
        <Checkbox isSelected={isBillable} onChange={setBillable} isDisabled={!!locked}>
          {t('form.billable')}
        </Checkbox>
      </fieldset>
      <ReceiptField
        expense={expense}
        file={file}
        removed={removeReceipt}
        error={receiptError}
        locked={!!locked}
        onFiles={pick}
        onRemove={() => {
          setFile(null);
          setFileProblem(null);
          if (expense?.receipt) setRemoveReceipt(true);
        }}
      />
      <div className="flex flex-wrap items-center justify-between gap-3 border-t border-stone-200 pt-5">
        <div className="flex gap-2">
          {!locked && (
            <Button type="submit" isPending={saving}>
              {expense ? t('form.save') : t('form.submit')}
            </Button>
          )}
          <Button variant="secondary" onPress={() => navigate(listHref)}>
            {locked ? t('form.back') : t('form.cancel')}
          </Button>
        </div>
        {expense && !locked && <DeleteButton expense={expense} listHref={listHref} />}
      </div>
    </Form>
  );
}

function ReceiptField(props: {
  expense?: Expense;
  file: File | null;
  removed: boolean;
  error?: string | null;
  locked: boolean;
  onFiles: (files: File[]) => void;
  onRemove: () => void;
}) {
  const { expense, file, removed, error, locked, onFiles, onRemove } = props;
  const t = useExpenseTexts();
  const fileUrl = useObjectUrl(file && isDrawable(file.type) ? file : null);
  const current = !file && !removed && expense?.receipt ? expense : null;
  return (
    <div className="flex flex-col gap-1.5">
      <span id="receipt-label" className={fieldLabel}>
        {t('form.receipt')}
      </span>
      {file && (
        <div className="flex items-center gap-3">
          {fileUrl && <img src={fileUrl} alt={t('form.newReceipt', { name: file.name })} className="max-h-40 max-w-40 rounded-sm border border-stone-200 object-contain" />}
          <span className="text-sm text-stone-700">
            {file.name} <span className="text-stone-500">{t('form.savedWith')}</span>
          </span>
        </div>
      )}
      {current && (
        <div className="flex items-center gap-3">
          <ReceiptPreview expense={current} size="large" />
          <span className="text-sm text-stone-700">{current.receipt!.file_name}</span>
        </div>
      )}
      {removed && !file && <p className="text-sm text-stone-700">{t('form.willBeRemoved')}</p>}
      {locked && !current && <p className="text-sm text-stone-600">{t('form.noReceipt')}</p>}
      {!locked && (
        <DropZone
          aria-labelledby="receipt-label"
          onDrop={async (event) => {
            const items = event.items.filter((item) => item.kind === 'file');
            onFiles(await Promise.all(items.slice(0, 1).map((item) => item.getFile())));
          }}
          className={cx(
            'flex flex-col items-center gap-3 rounded-lg border-2 border-dashed border-stone-300 bg-stone-50 px-4 py-6 text-center text-sm text-stone-700',
            'data-drop-target:border-teal-600 data-drop-target:bg-teal-50 data-focus-visible:outline-2 data-focus-visible:outline-teal-600',
            error && 'border-red-600',
          )}
        >
          <Text slot="label">{t('form.drop')}</Text>
          <div className="flex flex-wrap justify-center gap-2">
            <FileTrigger acceptedFileTypes={RECEIPT_ACCEPT} onSelect={(files) => files && onFiles([...files])}>
              <Button variant="secondary">{t('form.chooseFile')}</Button>
            </FileTrigger>
            <FileTrigger acceptedFileTypes={['image/*']} defaultCamera="environment" onSelect={(files) => files && onFiles([...files])}>
              <Button variant="secondary">{t('form.takePhoto')}</Button>
            </FileTrigger>
            {(file || current) && (
              <Button variant="quiet" onPress={onRemove}>
                {t('form.removeReceipt')}
              </Button>
            )}
          </div>
          <span className={fieldDescription}>{t('form.receiptHint')}</span>
        </DropZone>
      )}
      {error && (
        <p role="alert" className={fieldError}>
          {error}
        </p>
      )}
    </div>
  );
}

function DeleteButton({ expense, listHref }: { expense: Expense; listHref: string }) {
  const navigate = useNavigate();
  const t = useExpenseTexts();
  const format = useFormat();
  const remove = useDeleteExpense(expense.id);
  return (
    <DialogTrigger onOpenChange={(open) => !open && remove.reset()}>
      <Button variant="quiet" className="text-red-800">
        {t('form.delete')}
      </Button>
      <Dialog title={t('form.deleteTitle')}>
        <div className="flex flex-col gap-4">
          {remove.error && <Alert>{describeError(remove.error).message}</Alert>}
          <p className="text-sm text-stone-700">
            {t('form.deleteText', { date: format.day(expense.spent_date), category: expense.expense_category.name })}
          </p>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" slot="close">
              {t('form.keepIt')}
            </Button>
            <Button variant="danger" isPending={remove.isPending} onPress={() => remove.mutate(undefined, { onSuccess: () => navigate(listHref) })}>
              {t('form.delete')}
            </Button>
          </div>
        </div>
      </Dialog>
    </DialogTrigger>
  );
}
