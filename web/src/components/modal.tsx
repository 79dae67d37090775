import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

type ModalProps = {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** Buttons under the content, e.g. Cancel and Confirm. */
  footer?: ReactNode;
  /** Where focus goes when the modal opens; default the first focusable element. */
  initialFocus?: () => HTMLElement | null;
  size?: 'small' | 'medium' | 'large';
};

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.closest('[inert]'));
}

/**
 * A labelled modal dialog on the native <dialog>: the page behind is inert, Tab cycles
 * inside, Escape and the backdrop close it, and focus returns to where it came from.
 */
export function Modal({ open, onClose, title, children, footer, initialFocus, size = 'medium' }: ModalProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const initialFocusRef = useRef(initialFocus);
  initialFocusRef.current = initialFocus;
  const bodyRef = useRef<HTMLDivElement>(null);
  // A body of text only (e.g. a transaction's details) takes the focus itself, so a keyboard can scroll it.
  const [textOnly, setTextOnly] = useState(false);
  useEffect(() => {
    if (open && bodyRef.current) setTextOnly(focusables(bodyRef.current).length === 0);
  }, [open, children]);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || !open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    const target = initialFocusRef.current?.() ?? focusables(dialog)[0] ?? dialog;
    target.focus();
    return () => {
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, [open]);

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const items = focusables(dialogRef.current);
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  if (!open) return null;

  return (
    <dialog
      ref={dialogRef}
      className={`modal modal--${size}`}
      aria-labelledby={titleId}
      aria-modal="true"
      onKeyDown={onKeyDown}
      onCancel={(event) => {
        // Escape: let the owner decide, so state and the dialog never disagree.
        event.preventDefault();
        onCloseRef.current();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) onCloseRef.current();
      }}
    >
      <div className="modal__panel">
        <header className="modal__header">
          <h2 id={titleId} className="modal__title">
            {title}
          </h2>
          <button type="button" className="icon-button modal__close" aria-label="Close" onClick={() => onCloseRef.current()}>
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
            </svg>
          </button>
        </header>
        <div ref={bodyRef} className="modal__body" {...(textOnly ? { tabIndex: 0, role: 'region', 'aria-labelledby': titleId } : {})}>
          {children}
        </div>
        {footer && <footer className="modal__footer">{footer}</footer>}
      </div>
    </dialog>
  );
}
