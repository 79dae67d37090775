import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { getAccessToken } from '@/lib/session.js';
import { fetchAttachment, ticketKeys, type TicketAttachment } from './api.js';
import { ATTACHMENT_RULES, formatFileSize } from './rules.js';

/*
 * A message's files (spec 001/002 "Attachments"): images inline, PDFs in a new tab (the
 * blob address is revoked after 60 s), everything downloadable. The bytes are fetched with
 * the user's token; failures are alerts with the spec's texts.
 */

const isImage = (a: TicketAttachment) => a.file_type.startsWith('image/');
const isPdf = (a: TicketAttachment) => a.file_type === 'application/pdf';

export function AttachmentList({ attachments }: { attachments: TicketAttachment[] }) {
  if (attachments.length === 0) return null;
  return (
    <ul className="ticket-attachments" aria-label="Attachments">
      {attachments.map((a) => (
        <li key={a.id} className="ticket-attachment">
          {isImage(a) && <InlineImage attachment={a} />}
          <span className="ticket-attachment__name" title={a.file_name}>
            {a.file_name}
          </span>
          <span className="muted ticket-attachment__size">{formatFileSize(a.file_size)}</span>
          {isPdf(a) && (
            <button type="button" className="link-button" onClick={() => void openPdf(a)}>
              Open
            </button>
          )}
          <button type="button" className="link-button" onClick={() => void download(a)} aria-label={`Download ${a.file_name}`}>
            Download
          </button>
        </li>
      ))}
    </ul>
  );
}

const IMAGE_TEXT = { signedOut: 'You must be logged in to view images', failed: 'Failed to load image' } as const;

/** An image's bytes, read once (a file never changes) with the user's token; null when nobody is signed in. */
function useImageBytes(id: string) {
  return useQuery({
    queryKey: ticketKeys.attachment(id),
    staleTime: Infinity,
    queryFn: async () => ((await getAccessToken()) ? fetchAttachment(id) : null),
  });
}

function InlineImage({ attachment }: { attachment: TicketAttachment }) {
  const image = useImageBytes(attachment.id);
  const error = image.error ? IMAGE_TEXT.failed : image.data === null ? IMAGE_TEXT.signedOut : null;
  // The blob's address lives as long as the image shows.
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!image.data) return;
    const objectUrl = URL.createObjectURL(image.data);
    setUrl(objectUrl);
    return () => {
      URL.revokeObjectURL(objectUrl);
      setUrl(null);
    };
  }, [image.data]);

  if (error) return <span className="field__error">{error}</span>;
  if (!url) return <span className="ticket-attachment__thumb ticket-attachment__thumb--loading" aria-label="Loading image" />;
  return (
    <button
      type="button"
      className="ticket-attachment__thumb"
      onClick={() => {
        // With 'noopener' window.open always answers null; without it, null means a blocked pop-up.
        const opened = window.open(url, '_blank');
        if (opened) opened.opener = null;
        else window.alert('Failed to open image');
      }}
      aria-label={`Open ${attachment.file_name}`}
    >
      <img src={url} alt={attachment.file_name} />
    </button>
  );
}

async function openPdf(a: TicketAttachment): Promise<void> {
  try {
    const blob = await fetchAttachment(a.id);
    const url = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }));
    window.open(url, '_blank');
    window.setTimeout(() => URL.revokeObjectURL(url), ATTACHMENT_RULES.pdfUrlLifetimeMs);
  } catch {
    window.alert('Failed to open PDF');
  }
}

async function download(a: TicketAttachment): Promise<void> {
  let blob: Blob;
  try {
    blob = await fetchAttachment(a.id, true);
  } catch {
    window.alert('Failed to download file');
    return;
  }
  try {
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = a.file_name;
    document.body.append(link);
    link.click();
    link.remove();
    window.setTimeout(() => URL.revokeObjectURL(url), ATTACHMENT_RULES.pdfUrlLifetimeMs);
  } catch {
    window.alert('An error occurred while downloading the file');
  }
}
