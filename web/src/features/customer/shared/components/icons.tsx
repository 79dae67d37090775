import { Icon } from '@/components/icon.js';

/** Line icons of the customer screens; decorative (aria-hidden): the text beside them carries the meaning. */
export const customerIcons = {
  arrowDown: (
    <Icon>
      <path d="M12 5v14M6 13l6 6 6-6" />
    </Icon>
  ),
  arrowUp: (
    <Icon>
      <path d="M12 19V5M6 11l6-6 6 6" />
    </Icon>
  ),
  clock: (
    <Icon>
      <circle cx="12" cy="12" r="8.5" />
      <path d="M12 7.5V12l3 2" />
    </Icon>
  ),
  cross: (
    <Icon>
      <circle cx="12" cy="12" r="8.5" />
      <path d="M9 9l6 6M15 9l-6 6" />
    </Icon>
  ),
  check: (
    <Icon>
      <circle cx="12" cy="12" r="8.5" />
      <path d="M8.5 12.5l2.5 2.5 4.5-5" />
    </Icon>
  ),
  alert: (
    <Icon>
      <path d="M12 3.5l9 16H3z" />
      <path d="M12 10v4M12 17h.01" />
    </Icon>
  ),
  shield: (
    <Icon>
      <path d="M12 3l7 3v5.5c0 4.4-3 8-7 9.5-4-1.5-7-5.1-7-9.5V6z" />
    </Icon>
  ),
  swap: (
    <Icon>
      <path d="M4 8h13l-3-3M20 16H7l3 3" />
    </Icon>
  ),
  copy: (
    <Icon size={18}>
      <rect x="8" y="8" width="12" height="12" rx="2" />
      <path d="M16 8V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h2" />
    </Icon>
  ),
  paste: (
    <Icon size={18}>
      <rect x="6" y="4" width="12" height="17" rx="2" />
      <path d="M9 4h6v3H9zM9 12h6M9 16h4" />
    </Icon>
  ),
  trash: (
    <Icon size={18}>
      <path d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6" />
    </Icon>
  ),
  card: (
    <Icon>
      <rect x="3" y="5.5" width="18" height="13" rx="2" />
      <path d="M3 10h18M7 15h3" />
    </Icon>
  ),
  bank: (
    <Icon>
      <path d="M3 10l9-6 9 6M5 10v8M9.5 10v8M14.5 10v8M19 10v8M3 20h18" />
    </Icon>
  ),
  external: (
    <Icon size={16}>
      <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
    </Icon>
  ),
  plus: (
    <Icon size={18}>
      <path d="M12 5v14M5 12h14" />
    </Icon>
  ),
};
