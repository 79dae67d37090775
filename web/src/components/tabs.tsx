import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export type TabItem<K extends string> = {
  key: K;
  label: ReactNode;
  disabled?: boolean;
};

type TabsProps<K extends string> = {
  /** Names the tab list for screen readers. */
  label: string;
  tabs: TabItem<K>[];
  selected: K;
  onSelect: (key: K) => void;
  /** The selected tab's content. */
  children: ReactNode;
  className?: string;
};

/**
 * Tabs after the WAI-ARIA pattern: one tab stop, arrow keys (and Home/End) move and
 * select, the panel is labelled by its tab.
 */
export function Tabs<K extends string>({ label, tabs, selected, onSelect, children, className }: TabsProps<K>) {
  const baseId = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const enabled = tabs.filter((t) => !t.disabled);

  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = enabled.findIndex((t) => t.key === selected);
    let next: TabItem<K> | undefined;
    if (event.key === 'ArrowRight' || event.key === 'ArrowDown') next = enabled[(index + 1) % enabled.length];
    else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') next = enabled[(index - 1 + enabled.length) % enabled.length];
    else if (event.key === 'Home') next = enabled[0];
    else if (event.key === 'End') next = enabled[enabled.length - 1];
    if (!next) return;
    event.preventDefault();
    onSelect(next.key);
    listRef.current?.querySelector<HTMLButtonElement>(`[data-tab-key="${next.key}"]`)?.focus();
  };

  return (
    <div className={className ? `tabs ${className}` : 'tabs'}>
      <div ref={listRef} className="tabs__list" role="tablist" aria-label={label} onKeyDown={move}>
        {tabs.map((tab) => {
          const isSelected = tab.key === selected;
          return (
            <button
              key={tab.key}
              type="button"
              role="tab"
              id={`${baseId}-tab-${tab.key}`}
              data-tab-key={tab.key}
              className="tabs__tab"
              aria-selected={isSelected}
              aria-controls={`${baseId}-panel`}
              tabIndex={isSelected ? 0 : -1}
              disabled={tab.disabled}
              onClick={() => onSelect(tab.key)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div className="tabs__panel" role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-tab-${selected}`} tabIndex={0}>
        {children}
      </div>
    </div>
  );
}
