import { useNavigate } from 'react-router-dom';
import { Dropdown } from '@/components/dropdown.js';
import { signOut, useSession } from '@/lib/session.js';
import { icons } from './icons.js';

/** The round avatar and its menu (spec 2.6). */
export function UserMenu() {
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const fullName = user?.user_metadata.full_name.trim() ?? '';
  const initial = fullName ? fullName.charAt(0).toUpperCase() : '?';

  const logout = async () => {
    await signOut();
    void navigate('/login', { replace: true });
  };

  return (
    <Dropdown
      buttonLabel="Open user menu"
      buttonContent={
        <span className="avatar" aria-hidden="true">
          {initial}
        </span>
      }
      buttonClassName="avatar-button"
      className="user-menu"
      header={
        <div className="user-menu__who">
          <p className="user-menu__greeting">Hello, {fullName || 'User'}</p>
          {user?.email && <p className="user-menu__email">{user.email}</p>}
        </div>
      }
      items={[
        { key: 'wallets', label: 'Wallets', to: '/dashboard/wallets' },
        { key: 'settings', label: 'Settings', to: '/dashboard/settings' },
        { key: 'support', label: 'Support Tickets', to: '/dashboard/support' },
        {
          key: 'logout',
          label: (
            <>
              {icons.logout}
              <span>Logout</span>
            </>
          ),
          onSelect: () => void logout(),
          variant: 'danger',
        },
      ]}
    />
  );
}
