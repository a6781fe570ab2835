// Small inline SVG icons (decorative: hidden from assistive technology; the control carries the name).
import type { SVGProps } from "react";

/** What every icon's <svg> carries: a stroke drawing on a 24-unit grid in the text colour, 18 px, hidden. */
export const iconBase: SVGProps<SVGSVGElement> = {
  width: 18,
  height: 18,
  viewBox: "0 0 24 24",
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 2,
  strokeLinecap: "round",
  strokeLinejoin: "round",
  "aria-hidden": true,
  focusable: false,
};

export const SunIcon = () => (
  <svg {...iconBase}>
    <circle cx="12" cy="12" r="4" />
    <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
  </svg>
);

export const MoonIcon = () => (
  <svg {...iconBase}>
    <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
  </svg>
);

export const LogoIcon = () => (
  <svg {...iconBase} width={16} height={16}>
    <path d="M3 17l5-5 4 4 8-9" />
    <path d="M14 7h6v6" />
  </svg>
);

export const ArrowLeftIcon = () => (
  <svg {...iconBase} width={16} height={16}>
    <path d="M19 12H5M12 19l-7-7 7-7" />
  </svg>
);

export const CloseIcon = () => (
  <svg {...iconBase} width={16} height={16}>
    <path d="M6 6l12 12M18 6L6 18" />
  </svg>
);
