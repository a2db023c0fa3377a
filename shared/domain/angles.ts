/** Radians per degree: angles are given in degrees at the edges (the API, the data sets) and computed in radians. */
export const DEG = Math.PI / 180;
