// The map's drawing size (its viewBox), shared by the map and the space kept for it while it loads.
export const MAP_WIDTH = 960;
export const MAP_HEIGHT = 420;
