import { Dropdown } from '../../../components/dropdown.js';
import { icons } from './icons.js';

/** The bell in the top bar. Notifications arrive with the customer area; until then the list is empty. */
export function NotificationBell() {
  return (
    <Dropdown
      kind="panel"
      buttonLabel="Open notifications"
      buttonContent={icons.bell}
      buttonClassName="icon-button top-bar__icon"
      className="notifications"
      header={<h2 className="dropdown__title">Notifications</h2>}
    >
      <p className="notifications__empty">You have no notifications.</p>
    </Dropdown>
  );
}
