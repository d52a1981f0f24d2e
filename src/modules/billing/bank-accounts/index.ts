/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { bankAccountsWebRoutes } from './web-routes.ts';
export { paymentDetailsBlock } from './pdf-block.ts';
export type { PaymentDetails, PaymentDetailsBlock } from './pdf-block.ts';
export type { BankAccountRow } from './queries.ts';
export { presentBankAccount } from './presenter.ts';
export type { PresentedBankAccount } from './presenter.ts';
export { applyBankAccountInput, NEW_ACCOUNT } from './rules.ts';
export type { BankAccountInput } from './rules.ts';
export { createBankAccount, defaultBankAccount, deleteBankAccount, getBankAccount, listBankAccounts, updateBankAccount } from './service.ts';
