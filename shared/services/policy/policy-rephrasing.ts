/**
 * Optional rephrasing of a policy answer by a model on Amazon Bedrock (POLICY_REPHRASING=bedrock; off by
 * default). The retrieval and the citations stand without it: a rephrasing that fails, or that the guard
 * finds adding a fact (shared/domain/policy/rephrasing-guard.ts), is dropped and the retrieved answer kept.
 */
import { ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { config } from '../../config';
import { rephrasingProblem } from '../../domain/policy';
import { log } from '../../logger';
import { bedrockClient } from '../../store/aws-clients';

const INSTRUCTION =
  'Rewrite the answer below as clear prose for a project developer. Use only its statements. Keep every citation marker such as [1] with the statement it supports. ' +
  'Do not add facts, numbers, dates, names or links. Reply with the rewritten answer only.';

export type Rephraser = (answer: string) => Promise<string>;

const bedrockRephraser: Rephraser = async (answer) => {
  const out = await bedrockClient().send(
    new ConverseCommand({
      modelId: config().BEDROCK_MODEL_ID,
      system: [{ text: INSTRUCTION }],
      messages: [{ role: 'user', content: [{ text: answer }] }],
      inferenceConfig: { temperature: 0, maxTokens: 1500 },
    }),
  );
  return (out.output?.message?.content ?? []).map((c) => c.text ?? '').join('').trim();
};

/** The rephrased answer, or the original with the reason it was kept. */
export async function rephraseAnswer(answer: string, rephraser: Rephraser | undefined = config().POLICY_REPHRASING === 'bedrock' ? bedrockRephraser : undefined): Promise<{ answer: string; rephrased: boolean; note?: string }> {
  if (!rephraser) return { answer, rephrased: false };
  try {
    const candidate = await rephraser(answer);
    const problem = rephrasingProblem(answer, candidate);
    if (problem) return { answer, rephrased: false, note: `Rephrasing not used: ${problem}` };
    return { answer: candidate, rephrased: true };
  } catch (err) {
    log.warn('policy rephrasing failed', { err });
    return { answer, rephrased: false, note: 'Rephrasing not used: the language model did not answer' };
  }
}
