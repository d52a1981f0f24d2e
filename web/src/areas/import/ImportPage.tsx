import { useEffect, useRef, useState } from 'react';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Link } from '../../ui/Link.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { Select, type SelectOption } from '../../ui/Select.tsx';
import { SettingsSection } from '../../ui/SettingsSection.tsx';
import { cx, fieldDescription, fieldLabel, focusRingCss } from '../../ui/styles.ts';
import { IMPORT_MAX_BYTES, TRACKERS, useImport, usePreviewImport, type ImportDateOrder, type ImportFormat, type ImportReport } from './api.ts';
import { importFailure, type ImportFailure } from './failure.ts';
import { Counts, ItemList, MappingTables } from './Report.tsx';
import { useSaid } from './said.ts';
import { IMPORT_PROBLEMS, useImportTexts } from './texts.ts';

/**
 * Settings → Import (issue 27 item 3; owners and administrators): choose a tracker's CSV
 * export (and the tracker and the order of its dates, detected by default), preview how it maps onto the workspace
 * (what would be created, rows skipped and why, warnings, the people, clients, projects,
 * tasks and rates), then import it and see what was created. A preview belongs to the file,
 * tracker and date order it was made for: choosing another resets it, and only a current preview
 * offers the import. A refused file shows its lines at fault; nothing of it is imported.
 */
export function ImportPage() {
  const t = useImportTexts();
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState<ImportFormat>('auto');
  const [dates, setDates] = useState<ImportDateOrder>('auto');
  // A new key gives a new, empty file input ("Import another file").
  const [inputKey, setInputKey] = useState(0);
  const preview = usePreviewImport();
  const run = useImport();
  const busy = preview.isPending || run.isPending;

  const report = preview.data && preview.variables?.file === file && preview.variables.format === format && preview.variables.dates === dates ? preview.data : undefined;
  const result = run.data && run.variables?.file === file ? run.data : undefined;
  const tooLarge = file !== null && file.size > IMPORT_MAX_BYTES;
  const failure: ImportFailure | null = tooLarge ? { kind: 'too_large' } : run.error ? importFailure(run.error) : preview.error ? importFailure(preview.error) : null;

  const startOver = (next: File | null, nextFormat: ImportFormat, nextDates: ImportDateOrder = dates) => {
    setFile(next);
    setFormat(nextFormat);
    setDates(nextDates);
    preview.reset();
    run.reset();
  };

  return (
    <div className="flex max-w-5xl flex-col gap-6">
      <div className="flex max-w-2xl flex-col gap-2">
        <PageHeading>{t('heading')}</PageHeading>
        <p className="text-sm text-stone-600">{t('intro')}</p>
      </div>

      <SettingsSection id="import-form-title" title={t('form.title')}>
        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_17rem]">
          <form
            aria-label={t('form.label')}
            className="flex min-w-0 flex-col gap-5"
            onSubmit={(event) => {
              event.preventDefault();
              if (!file || tooLarge || busy) return;
              run.reset();
              preview.mutate({ file, format, dates });
            }}
          >
            <div className="flex min-w-0 flex-col gap-1.5">
              <label htmlFor="import-file" className={fieldLabel}>
                {t('form.file')}
              </label>
              {/* A native file input: the browser's own picker, and a file dropped on it is chosen too. */}
              <input
                key={inputKey}
                id="import-file"
                name="file"
                type="file"
                accept=".csv,.txt,text/csv,text/plain"
                aria-describedby="import-file-hint"
                aria-invalid={failure?.kind === 'too_large' || failure?.kind === 'file' ? true : undefined}
                disabled={busy}
                onChange={(e) => startOver(e.target.files?.[0] ?? null, format)}
                className={cx(
                  'block w-full min-w-0 rounded-lg border-2 border-dashed border-stone-300 bg-stone-50 px-3 py-5 text-sm text-stone-700',
                  'file:mr-3 file:rounded-md file:border file:border-solid file:border-stone-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium file:text-stone-800 hover:file:bg-stone-100',
                  'aria-invalid:border-red-600 disabled:cursor-not-allowed disabled:opacity-60',
                  focusRingCss,
                )}
              />
              <p id="import-file-hint" className={fieldDescription}>
                {t('form.fileHint')}
              </p>
            </div>
            <Select
              label={t('form.format')}
              description={t('form.formatHint')}
              options={formatOptions(t)}
              selectedKey={format}
              isDisabled={busy}
              onSelectionChange={(key) => key !== null && startOver(file, key as ImportFormat)}
              className="max-w-sm"
            />
            <Select
              label={t('form.dates')}
              description={t('form.datesHint')}
              options={dateOrderOptions(t)}
              selectedKey={dates}
              isDisabled={busy}
              onSelectionChange={(key) => key !== null && startOver(file, format, key as ImportDateOrder)}
              className="max-w-sm"
            />
            <div>
              <Button type="submit" variant={report ? 'secondary' : 'primary'} isPending={preview.isPending} isDisabled={!file || tooLarge || run.isPending}>
                {t('form.preview')}
              </Button>
            </div>
            {/* Beside the button that asked, so a phone shows it where the person is looking. */}
            {failure && <FailureAlert failure={failure} />}
          </form>
          <section aria-labelledby="import-exports" className="self-start rounded-md bg-stone-50 p-4 text-sm">
            <h3 id="import-exports" className="font-semibold text-stone-900">
              {t('form.exportsTitle')}
            </h3>
            <dl className="mt-2 flex flex-col gap-2">
              {TRACKERS.map((tracker) => (
                <div key={tracker}>
                  <dt className="font-medium text-stone-900">{t(`trackers.${tracker}`)}</dt>
                  <dd className="text-stone-700">{t(`exports.${tracker}`)}</dd>
                </div>
              ))}
            </dl>
          </section>
        </div>
      </SettingsSection>

      {result ? (
        <ResultSection
          result={result}
          onAnother={() => {
            startOver(null, 'auto', 'auto');
            setInputKey((k) => k + 1);
          }}
        />
      ) : (
        report && <PreviewSection report={report} isImporting={run.isPending} onImport={() => file && run.mutate({ file, format, dates })} />
      )}
    </div>
  );
}

type T = ReturnType<typeof useImportTexts>;

function formatOptions(t: T): SelectOption[] {
  return [{ id: 'auto', label: t('form.auto') }, ...TRACKERS.map((tracker) => ({ id: tracker, label: t(`trackers.${tracker}`) }))];
}

function dateOrderOptions(t: T): SelectOption[] {
  return [
    { id: 'auto', label: t('form.datesAuto') },
    { id: 'month_first', label: t('form.monthFirst') },
    { id: 'day_first', label: t('form.dayFirst') },
  ];
}

/** Why the file was not previewed or imported: one alert, with the lines at fault when the server named them. */
function FailureAlert({ failure }: { failure: ImportFailure }) {
  const t = useImportTexts();
  const say = useSaid();
  if (failure.kind === 'other') return <Alert>{failure.message}</Alert>;
  if (failure.kind === 'too_large') {
    return (
      <Alert title={t('failure.title')}>
        <p>{t('failure.tooLarge')}</p>
      </Alert>
    );
  }
  const { said, problems } = failure;
  // The server's summary of lines at fault names the first of them, which the list below says
  // too. A file refused as a whole (its header, not CSV) is said by the summary alone when the
  // app words it; else the server's English summary keeps the lines under it.
  const listed = said.problem === 'lines_at_fault' || (!said.problem && problems.some((p) => said.message.includes(p.message)));
  const worded = said.problem !== undefined && IMPORT_PROBLEMS.has(said.problem);
  const list = listed || !worded ? problems : [];
  return (
    <Alert title={t('failure.title')}>
      <div className="flex flex-col gap-2">
        <p className="break-words">{listed ? t('failure.nothingImported') : say(said)}</p>
        {list.length > 0 && <ItemList label={t('failure.problems')} items={list.map((p) => ({ line: p.line, message: say(p) }))} />}
      </div>
    </Alert>
  );
}

/** Moves the focus to a section's heading when it appears, so keyboard and screen reader users land on what changed. */
function useFocusOnShow<E extends HTMLElement>(what: unknown) {
  const ref = useRef<E>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [what]);
  return ref;
}

function PreviewSection({ report, isImporting, onImport }: { report: ImportReport; isImporting: boolean; onImport: () => void }) {
  const t = useImportTexts();
  const heading = useFocusOnShow<HTMLHeadingElement>(report);
  const anything = Object.values(report.created).some((n) => n > 0);
  return (
    <section aria-labelledby="import-preview" className="flex flex-col gap-5 rounded-lg border border-stone-200 bg-white p-5 shadow-xs sm:p-6">
      <div className="flex flex-col gap-1">
        <h2 id="import-preview" ref={heading} tabIndex={-1} className="text-lg font-semibold text-stone-900 outline-none">
          {t('preview.heading', { tracker: report.tracker_name })}
        </h2>
        <p className="text-sm text-stone-700">{t('preview.summary', { count: report.rows })}</p>
      </div>
      <Counts id="import-creates" title={t('preview.creates')} created={report.created} />
      <SkippedAndWarnings report={report} />
      <div className="flex flex-col items-start gap-3 border-t border-stone-200 pt-5">
        {anything ? (
          <Button isPending={isImporting} onPress={onImport}>
            {t('preview.import', { count: report.created.time_entries })}
          </Button>
        ) : (
          <p className="text-sm font-medium text-stone-800">{t('preview.nothingNew')}</p>
        )}
      </div>
      <MappingTables report={report} />
    </section>
  );
}

function SkippedAndWarnings({ report }: { report: ImportReport }) {
  const t = useImportTexts();
  const say = useSaid();
  return (
    <>
      {report.skipped_count > 0 && (
        <div className="flex flex-col gap-1">
          <ItemList
            label={t('skipped', { count: report.skipped_count })}
            heading
            items={report.skipped.map((s) => ({ line: s.line, message: say({ message: s.reason, problem: s.problem }) }))}
          />
          {report.skipped.length < report.skipped_count && <p className="text-sm text-stone-600">{t('skippedListed', { count: report.skipped.length })}</p>}
        </div>
      )}
      {report.warnings.length > 0 && <ItemList label={t('warnings')} heading items={report.warnings.map((w) => ({ line: w.line, message: say(w) }))} />}
      {report.warnings.length < report.warnings_count && <p className="text-sm text-stone-600">{t('skippedListed', { count: report.warnings.length })}</p>}
    </>
  );
}

function ResultSection({ result, onAnother }: { result: ImportReport; onAnother: () => void }) {
  const t = useImportTexts();
  const heading = useFocusOnShow<HTMLHeadingElement>(result);
  return (
    <section aria-labelledby="import-result" className="flex flex-col gap-5 rounded-lg border border-emerald-200 bg-white p-5 shadow-xs sm:p-6">
      <div className="flex flex-col gap-1">
        <h2 id="import-result" ref={heading} tabIndex={-1} className="text-lg font-semibold text-stone-900 outline-none">
          {t('result.heading')}
        </h2>
        <p role="status" className="text-sm text-stone-800">
          {t('result.done', { count: result.created.time_entries, tracker: result.tracker_name })}
          {result.created.invitations > 0 && <> {t('result.invited', { count: result.created.invitations })}</>}
        </p>
      </div>
      <Counts id="import-created" title={t('result.created')} created={result.created} />
      <SkippedAndWarnings report={result} />
      <div className="flex flex-wrap items-center gap-x-5 gap-y-3 border-t border-stone-200 pt-5 text-sm">
        <Link href="/time">{t('result.toTime')}</Link>
        <Link href="/projects">{t('result.toProjects')}</Link>
        <Button variant="secondary" onPress={onAnother}>
          {t('result.another')}
        </Button>
      </div>
    </section>
  );
}
