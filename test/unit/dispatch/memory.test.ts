/**
 * A WebAssembly memory grows and never shrinks, so the solver keeps a HiGHS instance only while its memory
 * has not grown (shared/domain/dispatch/highs-solver.ts): a solve that grows it leaves it to the collector.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Highs } from 'highs';
import { buildDispatchProgram, type LinearProgram } from '../../../shared/domain/dispatch/formulation';
import { highs, highsInstantiations, highsMemoryBytes, solveWithHighs } from '../../../shared/domain/dispatch/highs-solver';
import type { DispatchProblem } from '../../../shared/domain/dispatch/problem';

/**
 * n columns in [0, 1] with costs alternately -1 and +1 and one row sum(x) <= n / 4: the minimum is -n / 4.
 * 60,000 columns take HiGHS past its initial 20 MB of memory in well under a second.
 */
function wideProgramme(n: number): LinearProgram {
  return {
    colNames: [],
    rowNames: [],
    colCost: Float64Array.from({ length: n }, (_, j) => (j % 2 ? 1 : -1)),
    colLower: new Float64Array(n),
    colUpper: new Float64Array(n).fill(1),
    integer: new Uint8Array(n),
    rowLower: Float64Array.of(-Infinity),
    rowUpper: Float64Array.of(n / 4),
    rowStarts: Int32Array.of(0, n),
    colIndex: Int32Array.from({ length: n }, (_, j) => j),
    values: new Float64Array(n).fill(1),
  };
}

const day: DispatchProblem = {
  solarKw: Array.from({ length: 24 }, (_, t) => Math.max(0, 10 * Math.sin((Math.PI * (t - 6)) / 12))),
  loadKw: Array.from({ length: 24 }, (_, t) => 5 + 2 * Math.cos((2 * Math.PI * t) / 24)),
  importPrice: Array.from({ length: 24 }, (_, t) => 0.2 + 0.1 * Math.sin((2 * Math.PI * t) / 24)),
  exportPrice: Array.from({ length: 24 }, (_, t) => 0.2 + 0.1 * Math.sin((2 * Math.PI * t) / 24)),
  battery: { capacityKwh: 20, powerKw: 5, minSoc: 0.1, maxSoc: 0.9, initialSoc: 0.5, roundtripEfficiency: 0.9 },
  objective: 'revenue',
  intervalMinutes: 60,
  exportLimitKw: Infinity,
  importLimitKw: Infinity,
  demandChargePerKw: 0,
  terminalSoc: 'at_least_initial',
};
const dayProgramme = buildDispatchProgram(day).lp;

/** The collector, for this test only (jest runs without --expose-gc). */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** A weak reference to the kept instance, taken in a frame of its own so no local keeps it alive. */
const weakInstance = async (): Promise<WeakRef<Highs>> => new WeakRef(await highs());

describe('HiGHS instances and their memory', () => {
  it('solves day-ahead programmes on one instance whose memory does not grow', async () => {
    // Prepare
    const first = await solveWithHighs(dayProgramme);
    const instances = highsInstantiations();
    const bytes = await highsMemoryBytes();

    // Act
    const again = [await solveWithHighs(dayProgramme), await solveWithHighs(dayProgramme)];

    // Assess
    expect(first.status).toBe('optimal');
    expect(highsInstantiations()).toBe(instances);
    expect(await highsMemoryBytes()).toBe(bytes);
    expect(again.map((s) => s.objective)).toEqual([first.objective, first.objective]);
  });

  it('drops an instance a solve has grown, and solves the same on a fresh one', async () => {
    // Prepare
    const onFirst = await solveWithHighs(dayProgramme);
    const grown = await highs();
    const initialBytes = grown.memoryBytes;
    const instances = highsInstantiations();

    // Act
    const wide = await solveWithHighs(wideProgramme(60_000));
    const keptAfterWide = await highsMemoryBytes();
    const onFresh = await solveWithHighs(dayProgramme);
    const fresh = await highs();

    // Assess
    expect(wide.status).toBe('optimal');
    expect(wide.objective).toBeCloseTo(-15_000, 6);
    expect(grown.memoryBytes).toBeGreaterThan(initialBytes);
    expect(keptAfterWide).toBe(0);
    expect(fresh).not.toBe(grown);
    expect(highsInstantiations()).toBe(instances + 1);
    expect(fresh.memoryBytes).toBe(initialBytes);
    expect(onFresh.objective).toBe(onFirst.objective);
    expect(Array.from(onFresh.x)).toEqual(Array.from(onFirst.x));
  });

  it('leaves a dropped instance to the collector', async () => {
    // Prepare
    const gc = collector();
    await solveWithHighs(dayProgramme);
    const dropped = await weakInstance();

    // Act
    await solveWithHighs(wideProgramme(60_000));
    await new Promise((resolve) => setTimeout(resolve, 20));
    gc();

    // Assess
    expect(dropped.deref()?.memoryBytes).toBeUndefined();
    expect(await highsMemoryBytes()).toBe(0);
  });
});
