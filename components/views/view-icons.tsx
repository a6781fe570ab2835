// Icons of the saved views' controls (decorative: the control carries the name).
import { iconBase } from "@/components/ui/icons";

const base = { ...iconBase, width: 16, height: 16 };

export const BookmarkIcon = () => (
  <svg {...base}>
    <path d="M6 3h12v18l-6-4-6 4z" />
  </svg>
);
