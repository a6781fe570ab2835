// Icons of the header's controls (decorative: the control carries the name), drawn as
// components/ui/icons.tsx's are, a little smaller.
import { iconBase } from "@/components/ui/icons";

const base = { ...iconBase, width: 16, height: 16 };

export const CalendarIcon = () => (
  <svg {...base}>
    <rect x="3" y="5" width="18" height="16" rx="2" />
    <path d="M16 3v4M8 3v4M3 10h18" />
  </svg>
);

export const AccountIcon = () => (
  <svg {...base}>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21a8 8 0 0 1 16 0" />
  </svg>
);

export const ChevronDownIcon = () => (
  <svg {...base} width={14} height={14}>
    <path d="M6 9l6 6 6-6" />
  </svg>
);

export const MenuIcon = () => (
  <svg {...base} width={18} height={18}>
    <path d="M4 7h16M4 12h16M4 17h16" />
  </svg>
);
