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
 * The top bar's links, the spec's (docs/product.md#navigation; issue 37, item 13): Home,
 * Leaderboard, Create Dare, Profile, and Admin for admins. Issue 18 had cut them to Create Dare
 * (decision 017); the spec's list is back, the side menu still being the one list of every page.
 */
export const TOP_BAR: readonly NavItem[] = [
  { to: '/', label: 'Home', icon: Home },
  { to: '/leaderboard', label: 'Leaderboard', icon: Trophy },
  { to: '/create-dare', label: 'Create Dare', icon: PlusCircle },
  { to: '/profile', label: 'Profile', icon: User },
  { to: '/admin', label: 'Admin', icon: Shield, adminOnly: true },
];

/** The product's social media page: only admins see the link (docs/product.md#roles). */
export const SOCIAL_URL = 'https://x.com/darepool';

export const visibleItems = (items: readonly NavItem[], isAdmin: boolean) =>
  items.filter((item) => !item.adminOnly || isAdmin);
