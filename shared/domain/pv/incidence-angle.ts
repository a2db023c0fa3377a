/**
 * Incidence-angle modifiers (IAM): the share of light the module's glass lets through at an angle, relative to
 * normal incidence. For the beam, a function of its angle of incidence; for isotropic diffuse light from the sky
 * and the ground, that function integrated over the part of the sphere each comes from (Marion 2017).
 * Forms and defaults follow pvlib.iam, so its test values apply.
 */
import { DEG } from '../angles';

/** Which IAM function the model chain uses. */
export type IamModel = 'physical' | 'martin_ruiz';

/** Glass of a typical module (De Soto et al. 2006): refractive index, extinction 1/m, thickness m. */
export const GLASS = { n: 1.526, K: 4, L: 0.002 } as const;
/** Martin & Ruiz (2001) angular losses coefficient of a typical crystalline module (pvlib's default). */
export const MARTIN_RUIZ_A_R = 0.16;

/**
 * Physical IAM (De Soto et al. 2006, after Duffie & Beckman 2013, section 5.3): Fresnel reflection of s- and
 * p-polarised light at the air-glass interface (Snell's law for the refraction angle) and Bouguer absorption
 * over the path through the glass, relative to normal incidence. 0 at and beyond 90 degrees.
 */
export function iamPhysical(aoiDeg: number, n: number = GLASS.n, K: number = GLASS.K, L: number = GLASS.L): number {
  if (Number.isNaN(aoiDeg)) return NaN;
  const cos1 = Math.max(0, Math.cos(aoiDeg * DEG));
  if (cos1 === 0) return 0;
  const sin2 = Math.sqrt(1 - cos1 * cos1) / n;
  const cos2 = Math.sqrt(1 - sin2 * sin2);
  const rhoS = ((cos1 - n * cos2) / (cos1 + n * cos2)) ** 2;
  const rhoP = ((cos2 - n * cos1) / (cos2 + n * cos1)) ** 2;
  const tau0 = (1 - ((1 - n) / (1 + n)) ** 2) * Math.exp(-K * L);
  const tau = (1 - (rhoS + rhoP) / 2) * Math.exp((-K * L) / cos2);
  return tau / tau0;
}

/** Martin & Ruiz (2001), eq. 3 with the 2013 corrigendum: (1 - exp(-cos AOI / a_r)) / (1 - exp(-1 / a_r)); 0 at and beyond 90 degrees. */
export function iamMartinRuiz(aoiDeg: number, aR: number = MARTIN_RUIZ_A_R): number {
  if (!(aR > 0)) throw new RangeError('a_r must be positive');
  if (Number.isNaN(aoiDeg)) return NaN;
  if (Math.abs(aoiDeg) >= 90) return 0;
  return (1 - Math.exp(-Math.cos(aoiDeg * DEG) / aR)) / (1 - Math.exp(-1 / aR));
}

/** The IAM function of a model, with its default parameters. */
export function iamFunction(model: IamModel): (aoiDeg: number) => number {
  return model === 'physical' ? (aoi) => iamPhysical(aoi) : (aoi) => iamMartinRuiz(aoi);
}

/** Where diffuse light comes from: the sky dome, its last half degree above the horizon, or the ground. */
export type DiffuseRegion = 'sky' | 'horizon' | 'ground';

/**
 * Marion (2017): the diffuse IAM of a region for a plane of tilt beta, as the cos(AOI)-weighted mean of the IAM
 * function over that region of an isotropic sphere, integrated on a grid of `num` zenith by 2 `num` azimuth
 * cells (180 for sky and ground, 1800 for the horizon band, as the paper and pvlib.iam.marion_integrate).
 */
export function marionIntegrate(iam: (aoiDeg: number) => number, tiltDeg: number, region: DiffuseRegion, num?: number): number {
  const steps = num ?? (region === 'horizon' ? 1800 : 180);
  const beta = tiltDeg * DEG;
  const [cosBeta, sinBeta] = [Math.cos(beta), Math.sin(beta)];
  const ai = Math.PI / steps;
  // cos(psi) at the cell centres is symmetric about psi = pi: sum the first half of the azimuths twice.
  const cosPsi = Float64Array.from({ length: steps }, (_, j) => Math.cos(j * ai + 0.5 * ai));
  let numerator = 0;
  let denominator = 0;
  for (let i = 0; i < steps; i++) {
    const phi1 = i * ai;
    const inRegion = region === 'sky' ? phi1 + ai <= Math.PI / 2 : region === 'horizon' ? phi1 >= 89.5 * DEG && phi1 + ai <= Math.PI / 2 : phi1 >= Math.PI / 2;
    if (!inRegion) continue;
    const phiAvg = phi1 + 0.5 * ai;
    // Solid angle of the cell (Marion 2017, eq. 8): the azimuth width times cos(phi1) - cos(phi2).
    const dAs = 2 * ai * (Math.cos(phi1) - Math.cos(phi1 + ai));
    const [a, b] = [cosBeta * Math.cos(phiAvg), sinBeta * Math.sin(phiAvg)];
    for (let j = 0; j < steps; j++) {
      const cosAoi = a + b * cosPsi[j];
      if (!(cosAoi > 0)) continue; // light from behind the plane
      const weight = cosAoi * dAs;
      numerator += iam(Math.acos(Math.min(1, cosAoi)) / DEG) * weight;
      denominator += weight;
    }
  }
  return denominator > 0 ? numerator / denominator : 0;
}

/**
 * Martin & Ruiz (2001) closed-form diffuse IAMs for sky and ground, c1 = 0.4244 and c2 = a_r / 2 - 0.154
 * (pvlib.iam.martin_ruiz_diffuse; eqs. 5-8 of the paper).
 */
export function martinRuizDiffuse(tiltDeg: number, aR: number = MARTIN_RUIZ_A_R, c1 = 0.4244, c2 = 0.5 * aR - 0.154): { sky: number; ground: number } {
  // Tilts of exactly 0 or 180 degrees divide 0 by 0 in the ground and sky terms: nudge them as pvlib does.
  const tilt = tiltDeg === 0 ? 1e-6 : tiltDeg === 180 ? 180 - 1e-6 : tiltDeg;
  const beta = tilt * DEG;
  const sinBeta = tilt < 90 ? Math.sin(beta) : Math.sin(Math.PI - beta);
  const skyTerm = sinBeta + (Math.PI - beta - sinBeta) / (1 + Math.cos(beta));
  const groundTerm = sinBeta + (beta - sinBeta) / (1 - Math.cos(beta));
  return {
    sky: 1 - Math.exp((-(c1 + c2 * skyTerm) * skyTerm) / aR),
    ground: 1 - Math.exp((-(c1 + c2 * groundTerm) * groundTerm) / aR),
  };
}

/** Diffuse IAMs at whole-degree tilts, per model, computed on first use (they vary by under 0.001 a degree). */
const diffuseTables: Record<IamModel, ({ sky: number; ground: number } | undefined)[]> = { physical: [], martin_ruiz: [] };

function diffuseIamAtWholeDegree(model: IamModel, tilt: number): { sky: number; ground: number } {
  let factors = diffuseTables[model][tilt];
  if (!factors) {
    const iam = iamFunction(model);
    factors = model === 'physical' ? { sky: marionIntegrate(iam, tilt, 'sky'), ground: marionIntegrate(iam, tilt, 'ground') } : martinRuizDiffuse(tilt);
    diffuseTables[model][tilt] = factors;
  }
  return factors;
}

/**
 * Diffuse IAMs of sky and ground for a model and a tilt of 0-180 degrees: Marion's integral of the physical IAM,
 * or Martin & Ruiz's closed form, at the two whole-degree tilts either side, interpolated linearly (the integral
 * takes milliseconds, and spec inference tries many tilts).
 */
export function diffuseIam(model: IamModel, tiltDeg: number): { sky: number; ground: number } {
  const tilt = Math.min(180, Math.max(0, tiltDeg));
  const lower = Math.floor(tilt);
  const low = diffuseIamAtWholeDegree(model, lower);
  if (tilt === lower) return low;
  const high = diffuseIamAtWholeDegree(model, lower + 1);
  const w = tilt - lower;
  return { sky: low.sky + w * (high.sky - low.sky), ground: low.ground + w * (high.ground - low.ground) };
}
