/**
 * cdk-nag (AwsSolutions pack, cdk-nag 3.x): registered as a CDK validation plugin, so `cdk synth` fails on
 * an unacknowledged error. Acknowledgements sit beside the resource they concern, each with its reason.
 */
import { Stack, Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';

export function addNagChecks(app: App): void {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
}

/**
 * The text cdk-nag puts in a finding id for a resource ARN (`AwsSolutions-IAM5[Resource::<text>]`):
 * `Ref` and `Fn::GetAtt` become `<Name>` / `<Name.Attr>`, `Fn::Join` is joined, `Fn::Sub`'s `${X}` becomes `<X>`
 * (the CDK asset bucket's name), a literal stays as is.
 */
export function nagResourceText(scope: IConstruct, value: string): string {
  const flatten = (node: unknown): string => {
    if (typeof node === 'string') return node.replace(/\$\{/g, '<').replace(/\}/g, '>');
    const n = node as Record<string, unknown>;
    if (n['Fn::Join']) {
      const [delimiter, items] = n['Fn::Join'] as [string, unknown[]];
      return items.map(flatten).join(delimiter);
    }
    if (typeof n['Fn::Sub'] === 'string') return flatten(n['Fn::Sub']);
    if (n['Fn::GetAtt']) {
      const [resource, attribute] = n['Fn::GetAtt'] as [unknown, unknown];
      return `<${flatten(resource)}.${flatten(attribute)}>`;
    }
    if (n.Ref) return `<${flatten(n.Ref)}>`;
    return JSON.stringify(node);
  };
  return flatten(Stack.of(scope).resolve(value));
}
