/**
 * Capability tokens for the `X-Service-Features` header. An area adds its token
 * when its routes are registered, so the header lists only what really exists.
 */
export type FeatureToken =
  | 'time-approvals-v1'
  | 'project-task-budgets'
  | 'timer-stop'
  | 'timer-restart'
  | 'invoice-line-item-edit'
  | 'invoice-pdf'
  | 'financial-reports-v1';

export class FeatureSet {
  private readonly tokens = new Set<FeatureToken>();
  add(...tokens: FeatureToken[]) {
    for (const t of tokens) this.tokens.add(t);
  }
  header(): string {
    return [...this.tokens].sort().join(', ');
  }
}
