import {
  BookOpen,
  Crown,
  Home,
  type LucideIcon,
  PlusCircle,
  Shield,
  Trophy,
  User,
  Users,
} from 'lucide-react';

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
  adminOnly?: boolean;
}

/** docs/product.md#navigation: the side menu, in order. */
export const SIDE_MENU: readonly NavItem[] = [
  { to: '/', label: 'Home', icon: Home },
  { to: '/community-dares', label: 'Community Dares', icon: Users },
  { to: '/major-dare', label: 'Major Dare', icon: Crown },
  { to: '/leaderboard', label: 'Leaderboard', icon: Trophy },
  { to: '/profile', label: 'Profile', icon: User },
  { to: '/create-dare', label: 'Create Dare', icon: PlusCircle },
  { to: '/instructions', label: 'Instructions', icon: BookOpen },
  { to: '/admin', label: 'Admin Panel', icon: Shield, adminOnly: true },
];

/**
 * The top bar's links. The first brief's top bar (docs/product.md#navigation) repeated four of the side menu's pages, so a desktop
 * showed them twice (issue 18): the side menu is the one list of pages, and the top bar keeps
 * only the main action (decision 017).
 */
export const TOP_BAR: readonly NavItem[] = [{ to: '/create-dare', label: 'Create Dare', icon: PlusCircle }];

/** The product's social media page: only admins see the link (docs/product.md#roles). */
export const SOCIAL_URL = 'https://x.com/darepool';

export const visibleItems = (items: readonly NavItem[], isAdmin: boolean) =>
  items.filter((item) => !item.adminOnly || isAdmin);
