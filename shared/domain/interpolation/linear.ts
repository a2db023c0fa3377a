/** `linear`: the straight line between the gap's two known edges, the fill `adaptive` keeps unless another beats it. */
import { edgesKnown } from './types';

export function linearFill(y: readonly number[], a: number, b: number): number[] | null {
  const left = a - 1;
  const right = b + 1;
  if (!edgesKnown(y, a, b)) return null;
  const span = right - left;
  const out: number[] = [];
  for (let i = a; i <= b; i++) out.push(y[left] + ((y[right] - y[left]) * (i - left)) / span);
  return out;
}
