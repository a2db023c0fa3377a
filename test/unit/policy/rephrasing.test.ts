/** The optional model rephrasing keeps the retrieved facts: anything that adds or drops one is not used. */
import { rephrasingProblem } from '../../../shared/domain/policy';
import { rephraseAnswer } from '../../../shared/services/policy/policy-rephrasing';

const ORIGINAL = 'Permits for rooftop solar up to 100 kW are deemed granted after one month [1]. The EEG pays a tariff for 20 years [2].';

describe('policy answer rephrasing', () => {
  it('accepts new wording with the same markers and facts', () => {
    expect(rephrasingProblem(ORIGINAL, 'A rooftop system of at most 100 kW gets tacit approval after one month [1]; the EEG tariff runs for 20 years [2].')).toBeUndefined();
  });

  it('refuses a rephrasing that adds a number, drops a citation or is empty', () => {
    expect(rephrasingProblem(ORIGINAL, 'Permits up to 100 kW are granted after one month [1]. The EEG pays 8.2 ct/kWh for 20 years [2].')).toMatch(/states what the sources do not: 8\.2/);
    expect(rephrasingProblem(ORIGINAL, 'Permits up to 100 kW are granted after one month. The EEG pays a tariff for 20 years [2].')).toMatch(/citation markers/);
    expect(rephrasingProblem(ORIGINAL, ' ')).toMatch(/empty/);
  });

  it('keeps the retrieved answer when the model adds a fact or fails, and says why', async () => {
    await expect(rephraseAnswer(ORIGINAL, async () => 'Rooftop systems up to 100 kW are approved after one month [1], and the EEG pays for 20 years [2].')).resolves.toMatchObject({ rephrased: true });
    await expect(rephraseAnswer(ORIGINAL, async () => `${ORIGINAL} Since 2025 the cap is 200 kW.`)).resolves.toEqual({ answer: ORIGINAL, rephrased: false, note: expect.stringMatching(/^Rephrasing not used: the rephrasing states/) });
    await expect(rephraseAnswer(ORIGINAL, async () => { throw new Error('throttled'); })).resolves.toEqual({ answer: ORIGINAL, rephrased: false, note: 'Rephrasing not used: the language model did not answer' });
    await expect(rephraseAnswer(ORIGINAL, undefined)).resolves.toEqual({ answer: ORIGINAL, rephrased: false });
  });
});
