import type { MouseEvent } from 'react';
import { Dropdown } from '@/components/dropdown.js';
import { formatFullDateTime } from '@/lib/money.js';
import type { NotificationItem } from '../api/notifications.js';
import { useNotifications } from '../hooks/use-notifications.js';
import { timeAgo } from '../relative-time.js';
import { icons } from './icons.js';

function ItemBody({ item }: { item: NotificationItem }) {
  return (
    <>
      {!item.read && <span className="notifications__dot" aria-hidden="true" />}
      <span className="notifications__text">
        <span className="notifications__message">{item.message}</span>
        <time className="notifications__time" dateTime={item.created_at} title={formatFullDateTime(item.created_at)}>
          {timeAgo(item.created_at)}
        </time>
        {!item.read && <span className="visually-hidden"> (unread)</span>}
      </span>
    </>
  );
}

/**
 * The bell in the top bar (spec 001, "Notifications dropdown"): the newest notifications with
 * an unread count. The list is read when the bell opens, every 30 s and on live events; a
 * click on an unread item marks it read at once (undone if the server refuses).
 */
export function NotificationBell() {
  const { items, unread, refresh, markRead, markAllRead } = useNotifications();

  // The clicked button goes away once its item is read: focus stays in the panel, so Escape and Tab still work.
  const keepFocusInPanel = (event: MouseEvent<HTMLButtonElement>) => {
    event.currentTarget.closest<HTMLElement>('[role="dialog"]')?.focus();
  };

  return (
    <Dropdown
      kind="panel"
      buttonLabel={unread > 0 ? `Open notifications (${unread} unread)` : 'Open notifications'}
      popupLabel="Notifications"
      buttonContent={
        <>
          {icons.bell}
          {unread > 0 && (
            <span className="notifications__badge" data-testid="notification-count" aria-hidden="true">
              {unread > 99 ? '99+' : unread}
            </span>
          )}
        </>
      }
      buttonClassName="icon-button top-bar__icon notifications__button"
      className="notifications"
      onOpen={refresh}
      header={
        <div className="notifications__head">
          <h2 className="dropdown__title">Notifications</h2>
          {unread > 0 && (
            <button
              type="button"
              className="notifications__mark-all"
              onClick={(event) => {
                keepFocusInPanel(event);
                markAllRead();
              }}
            >
              Mark all as read
            </button>
          )}
        </div>
      }
    >
      {items === null ? (
        <p className="notifications__empty" role="status">
          Loading notifications...
        </p>
      ) : items.length === 0 ? (
        <p className="notifications__empty">You have no notifications.</p>
      ) : (
        <ul className="notifications__list" aria-label="Notification list" tabIndex={0}>
          {items.map((item) => (
            <li key={`${item.source}-${item.id}`}>
              {!item.read && item.source === 'stored' ? (
                <button
                  type="button"
                  className="notifications__item notifications__item--unread"
                  onClick={(event) => {
                    keepFocusInPanel(event);
                    markRead(item.id);
                  }}
                >
                  <ItemBody item={item} />
                </button>
              ) : (
                <div className={`notifications__item${item.read ? '' : ' notifications__item--unread'}`}>
                  <ItemBody item={item} />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </Dropdown>
  );
}
