/**
 * The domain event bus and the rules of shared/pipelines.ts that feed its events to work queues. The rules
 * live beside the queues: each rule writes the queue policy that lets it send, and that policy names the
 * rule, so a rule in another stack would make the two stacks depend on each other.
 */
import { EventBus, Rule, RuleTargetInput } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EVENT_SOURCE, type EventRule } from '../../shared/pipelines';

export interface DomainEventsProps {
  readonly busName: string;
  readonly rules: readonly EventRule[];
  /** Queues by logical id (lib/pipelines/queues.ts). */
  readonly queues: Record<string, IQueue>;
}

export class DomainEvents extends Construct {
  readonly bus: EventBus;
  readonly rules: Record<string, Rule> = {};

  constructor(scope: Construct, id: string, props: DomainEventsProps) {
    super(scope, id);
    this.bus = new EventBus(this, 'Bus', { eventBusName: props.busName });
    for (const spec of props.rules) {
      const queue = props.queues[spec.queue];
      if (!queue) throw new Error(`event rule ${spec.id} targets unknown queue ${spec.queue}`);
      this.rules[spec.id] = new Rule(this, spec.id, {
        eventBus: this.bus,
        description: `${spec.eventTypes.join(', ')} -> ${spec.queue}`,
        eventPattern: { source: [EVENT_SOURCE], detailType: spec.eventTypes },
        // The queue receives the DomainEvent itself, as the local adapter sends it (shared/events/event-bus.ts).
        targets: [new SqsQueue(queue, { message: RuleTargetInput.fromEventPath('$.detail') })],
      });
    }
  }
}
