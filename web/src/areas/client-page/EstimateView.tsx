import { useMemo, useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { describeError } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { DefinitionField as Field } from '../../ui/Definitions.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { createFormat } from '../../ui/format.ts';
import { LOCALES } from '../../ui/i18n.ts';
import { useStackedTables } from '../../ui/stacked-tables.ts';
import { TextArea } from '../../ui/TextArea.tsx';
import { fileSafe, useAnswerEstimate, useDownloadPdf, type ClientEstimate } from './api.ts';
import { DocumentTitle, Frame, LinesAndTotals, Notes, Parties } from './parts.tsx';
import { useClientPageTexts } from './texts.ts';

/**
 * The estimate a client link shows: who quotes whom, the lines and totals, how long it
 * is valid, its state, the PDF, and, while it waits for an answer, Accept (unless past
 * its validity) and Decline with an optional reason, each asked first. The server
 * records one answer; a refused one (answered already, revoked, expired) says so and
 * the page shows the estimate as it stands.
 */
export function EstimateView({ token, page }: { token: string; page: ClientEstimate }) {
  const t = useClientPageTexts();
  useStackedTables();
  const { estimate: e, seller, client } = page;
  const format = useMemo(() => createFormat({ locale: LOCALES[page.language], timeZone: 'UTC', durationStyle: 'clock' }), [page.language]);
  const money = (n: number) => format.money(n, e.currency);
  const download = useDownloadPdf(token);
  const answer = useAnswerEstimate(token);
  const [thanks, setThanks] = useState<string | null>(null);
  const failure = answer.error ? describeError(answer.error) : null;
  const refused =
    failure &&
    (failure.field === 'valid_until' ? t('estimate.refusedExpired') : failure.field === 'version' ? t('estimate.refusedChanged') : failure.code === 'conflict' ? t('estimate.refused') : failure.message);
  const day = (iso: string) => format.day(iso.slice(0, 10));

  return (
    <Frame>
      <div className="flex flex-col gap-6">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <DocumentTitle title={t('estimate.title', { number: e.number })} subject={e.subject} state={t(`estimate.states.${e.state}`)} />
          <div className="flex flex-col items-start gap-2 sm:items-end">
            <p className="text-sm text-stone-600">{t('estimate.total')}</p>
            <p className="text-2xl font-semibold text-stone-900 tabular-nums">{money(e.amount)}</p>
            <Button variant="secondary" isPending={download.isPending} onPress={() => download.mutate(`${t('files.estimate')}-${fileSafe(e.number)}.pdf`)}>
              {t('downloadPdf')}
            </Button>
          </div>
        </div>
        {download.error && <Alert>{describeError(download.error).message}</Alert>}

        <section aria-labelledby="client-answer" className="flex flex-col gap-3 rounded-lg border border-stone-200 bg-stone-50 p-4">
          <h2 id="client-answer" className="text-lg font-semibold text-stone-900">
            {t('estimate.answerHeading')}
          </h2>
          {thanks && <Alert tone="success">{thanks}</Alert>}
          {refused && <Alert>{refused}</Alert>}
          {e.state === 'accepted' && e.accepted_at && <p className="text-sm text-stone-800">{t('estimate.acceptedOn', { date: day(e.accepted_at) })}</p>}
          {e.state === 'declined' && e.declined_at && <p className="text-sm text-stone-800">{t('estimate.declinedOn', { date: day(e.declined_at) })}</p>}
          {e.state === 'declined' && e.decline_reason && <p className="text-sm whitespace-pre-line text-stone-700">{t('estimate.yourReason', { reason: e.decline_reason })}</p>}
          {e.can_answer && (
            <>
              <p className="text-sm text-stone-700">{e.expired && e.valid_until ? t('estimate.expired', { date: format.day(e.valid_until) }) : t('estimate.answerIntro')}</p>
              <div className="flex flex-wrap gap-2">
                {!e.expired && (
                  <AnswerDialog
                    kind="accept"
                    number={e.number}
                    amount={money(e.amount)}
                    pending={answer.isPending}
                    onAnswer={(reason, close) =>
                      answer.mutate({ kind: 'accept', version: e.version }, { onSuccess: () => setThanks(t('estimate.thanksAccepted')), onSettled: close })
                    }
                    onOpen={() => (answer.reset(), setThanks(null))}
                  />
                )}
                <AnswerDialog
                  kind="decline"
                  number={e.number}
                  amount={money(e.amount)}
                  pending={answer.isPending}
                  onAnswer={(reason, close) =>
                    answer.mutate({ kind: 'decline', reason }, { onSuccess: () => setThanks(t('estimate.thanksDeclined')), onSettled: close })
                  }
                  onOpen={() => (answer.reset(), setThanks(null))}
                />
              </div>
            </>
          )}
        </section>

        <Parties seller={seller} client={client} />

        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
          <Field label={t('estimate.issued')}>{format.day(e.issue_date)}</Field>
          <Field label={t('estimate.validUntil')}>{e.valid_until ? format.day(e.valid_until) : t('estimate.noLimit')}</Field>
        </dl>

        <LinesAndTotals caption={t('estimate.lineCaption')} lines={e.line_items} totals={e} money={money} format={format} />

        <Notes text={e.notes} />
      </div>
    </Frame>
  );
}

/** Accept or decline, asked first; a decline may say why. */
function AnswerDialog({
  kind,
  number,
  amount,
  pending,
  onAnswer,
  onOpen,
}: {
  kind: 'accept' | 'decline';
  number: string;
  amount: string;
  pending: boolean;
  onAnswer: (reason: string, close: () => void) => void;
  onOpen: () => void;
}) {
  const t = useClientPageTexts();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(o) => {
        if (o) onOpen();
        setOpen(o);
      }}
    >
      <Button variant={kind === 'accept' ? 'primary' : 'secondary'}>{t(`estimate.${kind}`)}</Button>
      <Dialog title={t(`estimate.${kind}Title`, { number })}>
        <div className="flex flex-col gap-4 text-sm">
          <p className="text-stone-800">{kind === 'accept' ? t('estimate.acceptText', { amount }) : t('estimate.declineText')}</p>
          {kind === 'decline' && (
            <TextArea label={t('estimate.reason')} name="reason" value={reason} onChange={setReason} rows={3} maxLength={2000} description={t('estimate.reasonHint')} />
          )}
          <div className="flex flex-wrap gap-2">
            <Button variant={kind === 'accept' ? 'primary' : 'danger'} isPending={pending} onPress={() => onAnswer(reason, () => setOpen(false))}>
              {t(`estimate.${kind}`)}
            </Button>
            <Button variant="quiet" onPress={() => setOpen(false)}>
              {t('estimate.cancel')}
            </Button>
          </div>
        </div>
      </Dialog>
    </DialogTrigger>
  );
}
