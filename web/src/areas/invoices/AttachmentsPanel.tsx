import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogTrigger, FileTrigger } from 'react-aria-components';
import { describeError } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import type { Invoice } from './api.ts';
import { sharingQuery, useAddAttachment, useRemoveAttachment, type Attachment } from './sharing-api.ts';
import { useSharingTexts } from './sharing-texts.ts';

/** What the server accepts (workspace/files/uploads.ts); it checks the bytes again. */
const ACCEPT = ['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/heic', 'image/heif', '.heic', '.heif'];

/**
 * The invoice's attached files (issue 25 item 4): download, attach (one request per
 * file, in turn), remove (asked first). In every state of the invoice, as Harvest.
 */
export function AttachmentsPanel({ invoice }: { invoice: Invoice }) {
  const t = useSharingTexts();
  const { data, error } = useQuery(sharingQuery(invoice.id));
  const add = useAddAttachment(invoice.id);
  const [uploading, setUploading] = useState<string | null>(null);

  const upload = async (files: File[]) => {
    add.reset();
    for (const file of files) {
      setUploading(file.name);
      try {
        // One key per chosen file: a retried request stores it once.
        await add.mutateAsync({ file, key: crypto.randomUUID() });
      } catch {
        break; // shown below (add.error)
      } finally {
        setUploading(null);
      }
    }
  };

  return (
    <section aria-labelledby="invoice-attachments" className="flex flex-col gap-2">
      <h2 id="invoice-attachments" className="text-lg font-semibold text-stone-900">
        {t('attachments.heading')}
      </h2>
      {error && <Alert>{describeError(error).message}</Alert>}
      {!data && !error && (
        <p role="status" className="text-sm text-stone-600">
          {t('attachments.loading')}
        </p>
      )}
      {data && data.attachments.length === 0 && <p className="text-sm text-stone-600">{t('attachments.none')}</p>}
      {data && data.attachments.length > 0 && (
        <ul className="divide-y divide-stone-100 rounded-lg border border-stone-200 bg-white text-sm shadow-xs">
          {data.attachments.map((a) => (
            <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
              <span className="flex min-w-0 flex-col">
                <a href={a.download_url} download={a.file_name} aria-label={t('attachments.download', { name: a.file_name })} className="truncate font-medium text-teal-800 underline underline-offset-2">
                  {a.file_name}
                </a>
                <span className="text-xs text-stone-600">{t('attachments.size', { size: Math.max(1, Math.round(a.byte_size / 1024)) })}</span>
              </span>
              <RemoveAttachment invoiceId={invoice.id} attachment={a} />
            </li>
          ))}
        </ul>
      )}
      {add.error && <Alert>{describeError(add.error).message}</Alert>}
      {uploading && (
        <p role="status" className="text-sm text-stone-600">
          {t('attachments.uploading', { name: uploading })}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <FileTrigger acceptedFileTypes={ACCEPT} allowsMultiple onSelect={(files) => files && void upload([...files])}>
          <Button variant="secondary" isPending={uploading !== null}>
            {t('attachments.add')}
          </Button>
        </FileTrigger>
        <span className="text-xs text-stone-600">{t('attachments.hint')}</span>
      </div>
    </section>
  );
}

function RemoveAttachment({ invoiceId, attachment: a }: { invoiceId: string; attachment: Attachment }) {
  const t = useSharingTexts();
  const [open, setOpen] = useState(false);
  const remove = useRemoveAttachment(invoiceId);
  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(o) => {
        remove.reset();
        setOpen(o);
      }}
    >
      <Button variant="quiet" aria-label={t('attachments.remove', { name: a.file_name })}>
        {t('attachments.removeButton')}
      </Button>
      <Dialog title={t('attachments.removeTitle', { name: a.file_name })}>
        <div className="flex flex-col gap-4 text-sm">
          <p className="text-stone-800">{t('attachments.removeText')}</p>
          {remove.error && <Alert>{describeError(remove.error).message}</Alert>}
          <Button variant="danger" isPending={remove.isPending} onPress={() => remove.mutate(a.id, { onSuccess: () => setOpen(false) })}>
            {t('attachments.removeConfirm')}
          </Button>
        </div>
      </Dialog>
    </DialogTrigger>
  );
}
