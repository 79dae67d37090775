import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';

export type DropdownItem = {
  key: string;
  label: ReactNode;
  /** A link inside the app ... */
  to?: string;
  /** ... or an action. */
  onSelect?: () => void;
  variant?: 'danger';
};

type DropdownProps = {
  /** The button's accessible name, e.g. 'Open user menu'. */
  buttonLabel: string;
  /** What the button shows (an icon, an avatar). */
  buttonContent: ReactNode;
  buttonClassName?: string;
  /** Non-interactive content at the top of the popup (a greeting, a heading). */
  header?: ReactNode;
  /** 'menu': a list of actions with arrow-key navigation. 'panel': free content. */
  kind?: 'menu' | 'panel';
  items?: DropdownItem[];
  children?: ReactNode;
  align?: 'start' | 'end';
  className?: string;
  /** The popup's accessible name; by default the button's without its leading 'Open '. */
  popupLabel?: string;
  /** Called each time the popup opens (e.g. to read fresh content). */
  onOpen?: () => void;
};

const ITEM_SELECTOR = '[role="menuitem"]';

/**
 * A button that opens a popup below it (WAI-ARIA menu button). Enter, Space or the
 * arrow keys open it; arrows, Home and End move between items; Escape closes it and
 * gives focus back to the button; a click outside or Tab away closes it.
 */
export function Dropdown({
  buttonLabel,
  buttonContent,
  buttonClassName = 'icon-button',
  header,
  kind = 'menu',
  items = [],
  children,
  align = 'end',
  className,
  popupLabel,
  onOpen,
}: DropdownProps) {
  const [open, setOpen] = useState(false);
  const [focusOnOpen, setFocusOnOpen] = useState<'first' | 'last' | 'none'>('none');
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const popupRef = useRef<HTMLDivElement>(null);
  const popupId = useId();

  const onOpenRef = useRef(onOpen);
  useEffect(() => {
    onOpenRef.current = onOpen;
  });
  useEffect(() => {
    if (open) onOpenRef.current?.();
  }, [open]);

  const menuItems = () => [...(popupRef.current?.querySelectorAll<HTMLElement>(ITEM_SELECTOR) ?? [])];

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    if (kind === 'menu') {
      const list = menuItems();
      if (focusOnOpen === 'first') list[0]?.focus();
      if (focusOnOpen === 'last') list[list.length - 1]?.focus();
    } else if (focusOnOpen !== 'none') {
      popupRef.current?.focus();
    }
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open, focusOnOpen, kind]);

  const openWith = (focus: 'first' | 'last' | 'none') => {
    setFocusOnOpen(focus);
    setOpen(true);
  };

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      if (open && event.key !== 'ArrowDown') close(false);
      else openWith('first');
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      openWith('last');
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      close(true);
    }
  };

  const onPopupKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close(true);
      return;
    }
    if (event.key === 'Tab') {
      // A menu closes on Tab; a panel keeps its own controls reachable and closes when focus leaves it.
      if (kind === 'menu') close(false);
      return;
    }
    if (kind !== 'menu') return;
    const list = menuItems();
    const index = list.indexOf(document.activeElement as HTMLElement);
    let next: HTMLElement | undefined;
    if (event.key === 'ArrowDown') next = list[(index + 1) % list.length];
    else if (event.key === 'ArrowUp') next = list[(index - 1 + list.length) % list.length];
    else if (event.key === 'Home') next = list[0];
    else if (event.key === 'End') next = list[list.length - 1];
    if (next) {
      event.preventDefault();
      next.focus();
    }
  };

  return (
    <div ref={rootRef} className={className ? `dropdown ${className}` : 'dropdown'}>
      <button
        ref={buttonRef}
        type="button"
        className={buttonClassName}
        aria-label={buttonLabel}
        aria-haspopup={kind === 'menu' ? 'menu' : 'dialog'}
        aria-expanded={open}
        aria-controls={open ? popupId : undefined}
        onClick={(event) => {
          // Keyboard activation is handled in onKeyDown; this is the pointer path.
          if (event.detail === 0) return;
          if (open) close(false);
          else openWith('none');
        }}
        onKeyDown={onButtonKeyDown}
      >
        {buttonContent}
      </button>
      {open && (
        <div
          ref={popupRef}
          id={popupId}
          className={`dropdown__popup dropdown__popup--${align}`}
          role={kind === 'menu' ? 'menu' : 'dialog'}
          aria-label={popupLabel ?? buttonLabel.replace(/^Open /, '')}
          tabIndex={-1}
          onKeyDown={onPopupKeyDown}
          onBlur={(event) => {
            // Focus moved to something outside (Tab past the last control): the panel closes.
            const next = event.relatedTarget as Node | null;
            if (kind === 'panel' && next && !rootRef.current?.contains(next)) setOpen(false);
          }}
        >
          {header && <div className="dropdown__header">{header}</div>}
          {kind === 'menu'
            ? items.map((item) => {
                const classes = `dropdown__item${item.variant === 'danger' ? ' dropdown__item--danger' : ''}`;
                return item.to ? (
                  <Link key={item.key} to={item.to} role="menuitem" tabIndex={-1} className={classes} onClick={() => close(false)}>
                    {item.label}
                  </Link>
                ) : (
                  <button
                    key={item.key}
                    type="button"
                    role="menuitem"
                    tabIndex={-1}
                    className={classes}
                    onClick={() => {
                      close(false);
                      item.onSelect?.();
                    }}
                  >
                    {item.label}
                  </button>
                );
              })
            : children}
        </div>
      )}
    </div>
  );
}
