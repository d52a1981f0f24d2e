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
  | 'financial-reports-v1'
  /** GET /invoices/:id/xml (CII, UBL, XRechnung) and /pdf?format=facturx (issue 25). */
  | 'e-invoice-en16931'
  /** GET /api/v2/changes: the change feed (issue 26). */
  | 'changes-feed-v1';

export class FeatureSet {
  private readonly tokens = new Set<FeatureToken>();
  private value = '';
  add(...tokens: FeatureToken[]) {
    for (const t of tokens) this.tokens.add(t);
    this.value = [...this.tokens].sort().join(', ');
  }
  header(): string {
    return this.value;
  }
}
